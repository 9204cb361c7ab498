import type { ParameterizedContext } from 'koa';
import { Readable } from 'node:stream';
import type { StoredFile } from '../services/files/stored-files.ts';
import { AppError, isAppError } from '../domain/app-error.ts';

/** The request's media type without parameters, in lower case; '' when none was sent. */
export function mediaTypeOf(ctx: ParameterizedContext): string {
  return ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase();
}

/** An error answered before the body is read whole: the connection closes after it, so what was not read is never read. */
export function refusedBody(code: 'payload_too_large' | 'unsupported_media_type', message: string): AppError {
  return new AppError(code, message, { headers: { Connection: 'close' } });
}

/**
 * The request body's chunks as they arrive, for a route that reads its body itself (a file, a
 * batch of changes) rather than through co-body (src/http/validation/body.ts): 413
 * payload_too_large as soon as the declared length or the bytes received pass `limit` bytes, 415
 * for a Content-Encoding (these bodies are taken as sent), 400 bad_request when the client breaks
 * off. The stream is not destroyed when reading stops early, so the error can still be answered.
 */
export async function* bodyChunks(ctx: ParameterizedContext, limit: number, what: string): AsyncGenerator<Buffer> {
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity')
    throw refusedBody('unsupported_media_type', `${what} is taken as sent, without a Content-Encoding`);
  const tooLarge = () => refusedBody('payload_too_large', `${what} is limited to ${limit} bytes`);
  const declared = ctx.get('Content-Length').trim();
  if (declared !== '' && Number(declared) > limit) throw tooLarge();
  let size = 0;
  try {
    for await (const chunk of ctx.req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge();
      yield chunk;
    }
  } catch (err) {
    if (isAppError(err)) throw err;
    throw new AppError('bad_request', `the request body could not be read: ${(err as Error).message}`, {
      headers: { Connection: 'close' },
    });
  }
}

/** Sends a stored file as it is read, a chunk at a time, with its type and its length. */
export function sendStoredFile(ctx: ParameterizedContext, file: StoredFile): void {
  ctx.type = file.contentType;
  ctx.body = Readable.from(file.chunks(), { objectMode: false });
  ctx.length = file.size;
}
