import type { Middleware } from 'koa';
import { AppError } from '../../domain/app-error.ts';
import type { Clock } from '../../domain/clock.ts';
import type { AuditService } from '../../services/audit.ts';
import type { Spans } from '../../services/plumbing/spans.ts';
import { pathTemplate } from '../../openapi/operation.ts';
import { redactSignedTokens } from '../../services/read-api/signed-token.ts';
import type { AppState } from '../app-deps.ts';

const redactIfToken = (id: string | null) => (id === null ? null : redactSignedTokens(id));

/**
 * Queues one audit row for every call, rejected ones included, once the response is decided; the
 * audit service writes it off the request path (docs/api.md, "Audit log"). What the row needs from
 * the connection (the client address) is read when the request starts: by the time a refused body
 * has been cut off, the socket may be gone. Room for the row is reserved first; when the queue is
 * full the call is refused (see refuseUnaudited) rather than served without a row.
 */
export function audit(service: AuditService, clock: Clock, spans: Spans | null): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    const at = clock().toISOString();
    const clientIp = ctx.ip || null;
    ctx.state.auditAdmitted = service.reserve();
    try {
      await next();
    } finally {
      const facts = ctx.state.audit;
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = facts.route ?? (typeof matched === 'string' ? pathTemplate(matched) : null);
      const params = (ctx as { params?: Record<string, string> }).params ?? {};
      if (ctx.state.auditAdmitted) {
        service.record({
          requestId: ctx.state.requestId,
          at,
          partnerId: facts.partnerId,
          keyId: facts.keyId,
          method: ctx.method,
          route,
          // A file-link token is a credential: it never reaches the row, whatever path carried it.
          path: redactSignedTokens(facts.path ?? ctx.path).slice(0, 2000),
          crewUniqueId: redactIfToken(facts.crewUniqueId ?? params.crew_unique_id ?? null),
          documentId: redactIfToken(facts.documentId ?? params.document_id ?? null),
          status: ctx.status,
          latencyMs: performance.now() - started,
          clientIp,
          traceId: spans?.traceId() ?? null,
        });
      }
    }
  };
}

/**
 * Runs inside the error renderer: a call the audit log has no room for is 503, served no further.
 * The health probe is still answered (unaudited), so monitoring sees the store's state.
 */
export function refuseUnaudited(): Middleware<AppState> {
  return (ctx, next) => {
    if (!ctx.state.auditAdmitted && ctx.path !== '/_internal/health') {
      throw new AppError('store_unavailable', 'the service is writing its audit log behind the store; retry shortly', {
        headers: { 'Retry-After': '1' },
      });
    }
    return next();
  };
}
