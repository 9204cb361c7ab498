import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppError, isAppError, type ErrorCode } from '../../domain/app-error.ts';
import { redactSignedTokens } from '../../services/read-api/signed-token.ts';
import type { AppState } from '../app-deps.ts';
import { isStoreFailure } from '../../store/store-failure.ts';
import { issuesOf } from '../validation/issues.ts';

/** Errors Koa or a library may raise with an HTTP status, mapped onto our codes. */
const HTTP_STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

function asAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const status = (err as { status?: unknown })?.status;
  const code = typeof status === 'number' ? HTTP_STATUS_CODES[status] : undefined;
  if (code) return new AppError(code, (err as Error).message);
  return new AppError('internal_error', 'unexpected error', { cause: err });
}

/**
 * Renders every error the one way docs/decisions.md §1 says: 422 as `{"detail": [issues]}`, anything
 * else as `{"detail": {"code", "message", ...extra}}` with the error's headers. Unexpected errors
 * become a 500 without a stack trace; the stack goes to the log with the request id.
 */
export function renderErrors(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const err = asAppError(thrown);
      ctx.state.failure = { code: err.code, fromStore: err.code === 'store_unavailable' || isStoreFailure(thrown) };
      if (err.code === 'internal_error') {
        const cause = isAppError(thrown) ? thrown : (thrown as Error);
        logger.error({ reqId: ctx.state.requestId, err: cause }, 'unexpected error');
      }
      ctx.status = err.status;
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      const issues = issuesOf(err);
      if (issues) {
        ctx.body = { detail: issues };
        return;
      }
      // Messages may name what the path held; a file-link token there is never echoed.
      const message = err.expose
        ? redactSignedTokens(err.message)
        : `an unexpected error occurred; quote request id ${ctx.state.requestId} when reporting it`;
      ctx.body = { detail: { code: err.code, message, ...err.extra } };
    }
  };
}
