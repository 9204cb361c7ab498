import type { Middleware } from 'koa';
import type { AppState } from '../app-deps.ts';

/** A fresh request id: `req_` + 24 hex. */
export function newRequestId(randomBytes: (size: number) => Buffer): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

/**
 * Gives every request a fresh id (`req_` + 24 hex), sets `X-Request-Id` before anything else can
 * fail, and prepares the audit facts later middleware fill in. A client-sent id is not trusted:
 * the audit row's id must be ours.
 */
export function requestId(randomBytes: (size: number) => Buffer): Middleware<AppState> {
  return async (ctx, next) => {
    const id = newRequestId(randomBytes);
    ctx.state.requestId = id;
    ctx.state.audit = { partnerId: null, keyId: null, crewUniqueId: null, documentId: null, route: null };
    ctx.set('X-Request-Id', id);
    await next();
  };
}
