import type { Router, RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import type { ParameterizedContext } from 'koa';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { ErrorCode } from '../domain/app-error.ts';
import type { Clock } from '../domain/clock.ts';
import type { OperationDeclaration } from '../openapi/operation.ts';
import type { ResultWriter } from '../services/compliance/stored-results.ts';
import type { ReadCache } from '../services/read-cache/read-cache.ts';
import type { AuditService } from '../services/audit.ts';
import type { Authenticator } from '../services/auth-cache.ts';
import type { RateLimiter } from '../services/rate-limit.ts';
import type { Spans } from '../services/plumbing/spans.ts';
import type { SigningKeys } from '../services/signing-keys.ts';
import type { PartnerContext } from '../services/visibility/partner-context.ts';
import type { Database } from '../store/database.ts';
import type { WebhookTester } from '../services/webhooks/test-delivery.ts';

/** What createApp needs from the outside world; everything with a side effect is injected. */
export interface AppDeps {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Source of randomness for request ids and the first signing secret; crypto.randomBytes by default. */
  randomBytes?: (size: number) => Buffer;
  /** The audit log writer; by default one is created over `db` (and closed by the app's `close`). */
  audit?: AuditService;
  /** Key authentication; by default a cache over `db` (src/services/auth-cache.ts). */
  authenticator?: Authenticator;
  /** The cached reads (src/services/read-cache/): the catalogue, the compliance check's, matrices, GET answers; by default one per app. */
  readCache?: ReadCache;
  /** Where request counts and latencies go (`svc serve --metrics-port`, src/http/metrics/); null: nowhere. */
  metrics?: HttpMetrics | null;
  /**
   * Sends test deliveries for the operator route (src/sync/test-event.ts, which the HTTP layer may
   * not import: `svc serve` wires it); null: the route fails as a wiring error.
   */
  webhookTester?: WebhookTester | null;
  /** Where the request's facts go when tracing is on (src/services/plumbing/spans.ts); null: nowhere. */
  spans?: Spans | null;
}

/** What the app tells monitoring about each request; kept free of any metrics library. */
export interface HttpMetrics {
  request(r: { method: string; route: string; status: number; seconds: number }): void;
  /** A call refused by the per-partner rate limit (429). */
  rateLimited(): void;
  /** A call that failed because the store did not answer, or refused (503 store_unavailable, or a store error behind a 500). */
  storeError(): void;
}

/** What route modules and middleware receive: the app deps plus services built once per app. */
export interface RouteDeps extends Required<AppDeps> {
  /** Server-side HMAC keys (cursor, file links), loaded from the store once and cached. */
  signingKeys: () => Promise<SigningKeys>;
  rateLimiter: RateLimiter;
  /** Key authentication with an in-process cache; revocations through this process call `invalidate()`. */
  authenticator: Authenticator;
  /** Compliance results written behind the request (src/services/compliance/stored-results.ts). */
  complianceResults: ResultWriter;
}

/** The Koa app plus the services with background work, and how to stop them. */
export interface SvcApp extends Koa<AppState> {
  services: RouteDeps;
  /** Writes what the services hold in memory (audit rows, compliance results) and stops their timers; resolves with the audit rows that could not be written. */
  close(deadlineMs?: number): Promise<number>;
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
  /** Whether the audit log had room for this call's row (set by the audit middleware). */
  auditAdmitted: boolean;
  /** Set by renderErrors: the error the call ended with, and whether the store caused it. */
  failure?: { code: ErrorCode; fromStore: boolean };
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
