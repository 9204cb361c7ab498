import type { Middleware } from 'koa';
import type { Clock } from '../../domain/clock.ts';
import type { AppState } from '../app-deps.ts';

/**
 * A fresh request id: `req_` + 24 hex, the second it was made (8 hex of Unix time, wrapping in
 * 2106) then 16 random. Ids made close in time sort together, so the audit log's index on them
 * takes a batch of rows in a few pages at its end rather than one random page per row, which cost
 * the store more I/O and CPU than anything else in a call (docs/decisions.md). 64 random bits
 * within a second keep ids unique.
 */
export function newRequestId(randomBytes: (size: number) => Buffer, at: Date): string {
  const seconds = Math.floor(at.getTime() / 1000) >>> 0;
  return `req_${seconds.toString(16).padStart(8, '0')}${randomBytes(8).toString('hex')}`;
}

/**
 * Gives every request a fresh id (newRequestId), sets `X-Request-Id` before anything else can
 * fail, and prepares the audit facts later middleware fill in. A client-sent id is not trusted:
 * the audit row's id must be ours.
 */
export function requestId(randomBytes: (size: number) => Buffer, clock: Clock): Middleware<AppState> {
  return (ctx, next) => {
    const id = newRequestId(randomBytes, clock());
    ctx.state.requestId = id;
    ctx.state.audit = { partnerId: null, keyId: null, crewUniqueId: null, documentId: null, route: null };
    ctx.set('X-Request-Id', id);
    return next();
  };
}
