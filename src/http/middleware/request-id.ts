import type { Middleware } from 'koa';
import type { AppState } from '../app-deps.ts';

/** A fresh request id: `req_` + 24 hex. */
export function newRequestId(randomBytes: (size: number) => Buffer): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

/**
 * `randomBytes` drawn `poolSize` bytes at a time: a request id takes its 12 bytes from the pool,
 * so the source is called once per 256 ids instead of once per request (docs/benchmarks.md). The
 * bytes are the source's, each handed out once.
 */
export function pooledRandomBytes(randomBytes: (size: number) => Buffer, poolSize = 3072): (size: number) => Buffer {
  let pool: Buffer = Buffer.alloc(0);
  let used = 0;
  return (size) => {
    if (size > poolSize) return randomBytes(size);
    if (used + size > pool.length) {
      pool = randomBytes(poolSize);
      used = 0;
    }
    used += size;
    return pool.subarray(used - size, used);
  };
}

/**
 * Gives every request a fresh id (`req_` + 24 hex), sets `X-Request-Id` before anything else can
 * fail, and prepares the audit facts later middleware fill in. A client-sent id is not trusted:
 * the audit row's id must be ours.
 */
export function requestId(randomBytes: (size: number) => Buffer): Middleware<AppState> {
  const pooled = pooledRandomBytes(randomBytes);
  return async (ctx, next) => {
    const id = newRequestId(pooled);
    ctx.state.requestId = id;
    ctx.state.audit = { partnerId: null, keyId: null, crewUniqueId: null, documentId: null, route: null };
    ctx.set('X-Request-Id', id);
    await next();
  };
}
