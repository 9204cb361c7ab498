import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from '../app-deps.ts';

/** A body Koa would serialise with JSON.stringify: a plain object or an array. */
function isJsonValue(body: unknown): body is object {
  if (body === null || typeof body !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(body);
  return Array.isArray(body) || proto === Object.prototype || proto === null;
}

/**
 * Serialises a JSON body here, inside the middleware chain, instead of leaving it to Koa after the
 * chain has returned. A body that cannot be serialised then becomes our 500 internal_error, with
 * X-Request-Id, and the request log and audit row (outside this middleware) record the 500 that
 * was really sent rather than the status the route had set.
 */
export function serializeJson(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (!isJsonValue(body)) return;
    let text: string;
    try {
      text = JSON.stringify(body);
    } catch (err) {
      logger.error({ reqId: ctx.state.requestId, err }, 'response body cannot be serialised');
      ctx.status = 500;
      text = JSON.stringify({
        detail: {
          code: 'internal_error',
          message: `an unexpected error occurred; quote request id ${ctx.state.requestId} when reporting it`,
        },
      });
    }
    ctx.body = text;
    ctx.type = 'application/json';
  };
}
