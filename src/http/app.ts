import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { Router } from '@koa/router';
import Koa from 'koa';
import { createAuditService } from '../services/audit.ts';
import { createAuthenticator } from '../services/auth-cache.ts';
import { createResultWriter } from '../services/compliance/stored-results.ts';
import { createReadCache } from '../services/read-cache/read-cache.ts';
import { createRateLimiter } from '../services/rate-limit.ts';
import { signingKeysLoader } from '../services/signing-keys.ts';
import type { AppDeps, AppState, RouteDeps, RouteModule, SvcApp } from './app-deps.ts';
import { apiHeaders } from './middleware/api-headers.ts';
import { audit, refuseUnaudited } from './middleware/audit.ts';
import { compression } from './middleware/compression.ts';
import { renderErrors } from './middleware/errors.ts';
import { fallback } from './middleware/fallback.ts';
import { requestId } from './middleware/request-id.ts';
import { observeRequests } from './middleware/observe.ts';
import { requestLog } from './middleware/request-log.ts';
import { serializeJson } from './middleware/serialize.ts';
import { traceRequest } from './middleware/trace-request.ts';
import { routeModules } from './routes/index.ts';

/** Fills the optional deps and builds the per-app services route modules share. */
export function routeDeps(deps: AppDeps): RouteDeps {
  const randomBytes = deps.randomBytes ?? cryptoRandomBytes;
  return {
    ...deps,
    audit: deps.audit ?? createAuditService(deps.db, { logger: deps.logger }),
    randomBytes,
    signingKeys: signingKeysLoader(deps.db, randomBytes),
    authenticator: deps.authenticator ?? createAuthenticator(deps.db),
    rateLimiter: createRateLimiter(deps.db, deps.clock, deps.config.rateLimitWindowSeconds),
    readCache: deps.readCache ?? createReadCache(deps.db, deps.clock),
    metrics: deps.metrics ?? null,
    webhookTester: deps.webhookTester ?? null,
    spans: deps.spans ?? null,
    complianceResults: createResultWriter(deps.db, { logger: deps.logger }),
  };
}

/**
 * The API as a Koa app; it never listens (see server.ts). Order matters: the request id exists
 * before anything can fail, the audit and log see the final status (JSON bodies are serialised
 * inside them, so a body that cannot be is a 500 they see), errors are rendered inside that, and
 * unmatched paths fall through to 404/405.
 */
export function createApp(deps: AppDeps, modules: readonly RouteModule[] = routeModules): SvcApp {
  const shared = routeDeps(deps);
  // Behind one TLS-terminating proxy: trust only the address it appended to X-Forwarded-For,
  // not what the client put in front of it.
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy, maxIpsCount: 1 });
  // Koa's own error logging would print stacks to stderr; ours go through pino with the request id.
  app.silent = true;
  const router = new Router<AppState>();
  for (const m of modules) m.register(router, shared);
  app.use(requestId(shared.randomBytes, deps.clock));
  if (deps.spans) app.use(traceRequest(deps.spans));
  app.use(apiHeaders());
  app.use(requestLog(deps.logger));
  if (deps.metrics) app.use(observeRequests(deps.metrics));
  app.use(audit(shared.audit, deps.clock, shared.spans));
  app.use(compression());
  app.use(serializeJson(deps.logger));
  app.use(renderErrors(deps.logger));
  app.use(refuseUnaudited());
  app.use(fallback());
  app.use(router.routes());
  return Object.assign(app, {
    services: shared,
    close: async (deadlineMs?: number) => {
      const [, unwritten] = await Promise.all([shared.complianceResults.close(deadlineMs), shared.audit.close(deadlineMs)]);
      return unwritten;
    },
  });
}
