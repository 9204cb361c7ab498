import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/database.ts';
import { groupCommit } from '../../services/group-commit.ts';
import { insertAuditEntries, type AuditEntry } from '../../store/repositories/audit-repo.ts';
import { pathTemplate } from '../../openapi/operation.ts';
import { redactSignedTokens } from '../../services/read-api/signed-token.ts';
import type { AppState } from '../app-deps.ts';

const redactIfToken = (id: string | null) => (id === null ? null : redactSignedTokens(id));

/**
 * Writes one audit row for every call, rejected ones included, once the response is decided:
 * the row exists before the client sees the answer. A failing audit write is logged, not turned
 * into an error, so the health probe can still say the store is down. Rows of concurrent calls
 * are written together (group commit), each call still waiting for its own row.
 */
export function audit(db: Kysely<Database>, clock: Clock, logger: Logger): Middleware<AppState> {
  const write = groupCommit(async (entries: readonly AuditEntry[]) => {
    await insertAuditEntries(db, entries);
    return entries.map(() => undefined);
  });
  return async (ctx, next) => {
    const started = performance.now();
    const at = clock().toISOString();
    try {
      await next();
    } finally {
      const facts = ctx.state.audit;
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = facts.route ?? (typeof matched === 'string' ? pathTemplate(matched) : null);
      const params = ((ctx as { params?: Record<string, string> }).params ?? {});
      try {
        await write({
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
          clientIp: ctx.ip || null,
        });
      } catch (err) {
        logger.error({ reqId: ctx.state.requestId, err: (err as Error).message }, 'audit write failed');
      }
    }
  };
}
