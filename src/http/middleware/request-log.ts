import type { Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { redactSignedTokens } from '../../services/read-api/signed-token.ts';
import type { AppContext, AppState } from '../app-deps.ts';

/** One structured line per request: id, method, path, status, latency. Never headers, bodies or file-link tokens. */
export function requestLog(logger: Logger): Middleware<AppState> {
  const logged = async (ctx: AppContext, next: Next): Promise<void> => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        {
          reqId: ctx.state.requestId,
          method: ctx.method,
          path: redactSignedTokens(ctx.state.audit?.path ?? ctx.path),
          status: ctx.status,
          partnerId: ctx.state.audit?.partnerId ?? undefined,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  };
  // The level can change while the process runs; when info is off, nothing of the line is built.
  return (ctx, next) => (logger.isLevelEnabled('info') ? logged(ctx, next) : next());
}
