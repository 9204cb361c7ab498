import type { Router, RouterMiddleware } from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { Clock } from '../domain/clock.ts';
import type { OperationDeclaration } from '../openapi/operation.ts';
import type { CatalogueCache } from '../services/compliance/catalogue-cache.ts';
import type { RateLimiter } from '../services/rate-limit.ts';
import type { SigningKeys } from '../services/signing-keys.ts';
import type { PartnerContext } from '../services/visibility/partner-context.ts';
import type { Database } from '../store/database.ts';

/** What createApp needs from the outside world; everything with a side effect is injected. */
export interface AppDeps {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Source of randomness for request ids and the first signing secret; crypto.randomBytes by default. */
  randomBytes?: (size: number) => Buffer;
}

/** What route modules and middleware receive: the app deps plus services built once per app. */
export interface RouteDeps extends Required<AppDeps> {
  /** Server-side HMAC keys (cursor, file links), loaded from the store once and cached. */
  signingKeys: () => Promise<SigningKeys>;
  rateLimiter: RateLimiter;
  /** The requirement catalogue; one per app, as the evaluator keeps its compiled index per array identity. */
  catalogue: CatalogueCache;
}

/** The operator behind an admin call. */
export interface OperatorContext {
  keyId: string;
  /** The partner account the operator key is tied to, if any. */
  partnerId: string | null;
}

/** Facts the audit middleware records after the response is decided. */
export interface AuditFacts {
  partnerId: string | null;
  keyId: string | null;
  crewUniqueId: string | null;
  documentId: string | null;
  /** Route template (`/api/v2/…/{crew_unique_id}`) when a route matched the path. */
  route: string | null;
  /** Replaces the request path in the audit row and log when the path holds a credential (file links). */
  path?: string;
}

/** Koa `ctx.state` of this app. */
export interface AppState {
  requestId: string;
  audit: AuditFacts;
  /** Set by authenticatePartner. */
  partner?: PartnerContext;
  /** Set by requireOperator. */
  operator?: OperatorContext;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppRouter = Router<AppState>;
export type AppMiddleware = RouterMiddleware<AppState>;

/**
 * One resource's routes, built with `routeModule` (src/http/route.ts) from route declarations,
 * which the OpenAPI document is built from too. Add a module to `routeModules` in routes/index.ts.
 */
export interface RouteModule {
  name: string;
  /** The declarations of the module's routes; absent for test-only modules, which stay undocumented. */
  routes?: readonly OperationDeclaration[];
  register(router: AppRouter, deps: RouteDeps): void;
}
