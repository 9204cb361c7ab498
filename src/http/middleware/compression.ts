import compress from 'koa-compress';
import type { Middleware, Next } from 'koa';
import { constants } from 'node:zlib';
import type { AppContext, AppState } from '../app-deps.ts';

/** Answers smaller than this go out as they are (docs/performance.md; bench/results/compression-threshold.md). */
export const COMPRESS_THRESHOLD_BYTES = 4096;

/**
 * gzip or br (brotli preferred, at quality 4: most of its gain for a fraction of the default's CPU)
 * for compressible answers of 4 KiB and more, when the client's Accept-Encoding asks for it.
 * Runs outside the JSON serialiser, so it sees the bytes that are sent.
 */
export function compression(): Middleware<AppState> {
  const compressing = compress({
    threshold: COMPRESS_THRESHOLD_BYTES,
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    deflate: false,
  }) as (ctx: AppContext, next: Next) => Promise<void>; // koa-compress's middleware is an async function
  // Without Accept-Encoding koa-compress answers identity (its defaultEncoding) after negotiating
  // per call; skipping it then saves that work on every such call, and Vary is set the same.
  return (ctx, next) => {
    if (ctx.get('Accept-Encoding') !== '') return compressing(ctx, next);
    ctx.vary('Accept-Encoding');
    return next();
  };
}
