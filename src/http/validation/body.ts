import coBody from 'co-body';
import type { ParameterizedContext } from 'koa';
import { AppError } from '../../domain/app-error.ts';
import { readObject, type FieldSpecs, type ParsedFields } from '../../domain/fields.ts';
import { issues, throwValidation } from './issues.ts';
import { locateJsonError, MAX_JSON_DEPTH } from './json-error.ts';

/** Largest request body accepted (docs/decisions.md §1: 413 over 64 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/** `application/json` and `application/*+json`, whatever their parameters. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** True for `application/json` and `application/*+json`, whatever their parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && JSON_TYPE.test(header.split(';')[0]!.trim());
}

/** Methods whose body is read; on any other, a body is ignored. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/*
 * co-body (the reader @koa/bodyparser wraps; raw-body, inflation, @hapi/bourne) reads the body:
 * the limit is enforced on the declared length and again on the bytes as they arrive,
 * Content-Encoding gzip/deflate/br is inflated (the limit holds after inflating). It is called
 * directly: the content type is decided here before reading, and @koa/bodyparser's own matching of
 * it on every call cost the compliance check about a tenth of its CPU (docs/performance.md).
 * `strict: false` lets a body which is valid JSON but not an object reach the validators (422
 * model_attributes_type, as pydantic answers), not a bare 400. `onProtoPoisoning: 'ignore'` keeps a
 * `__proto__` key as the plain own property JSON.parse makes of it, so it is refused like any other
 * undeclared key (422 extra_forbidden, docs/decisions.md "Request bodies"): nothing merges a body
 * into another object, every field is read through its parser, and an echo copies with
 * Object.fromEntries.
 */
const READ_OPTIONS = { limit: MAX_BODY_BYTES, encoding: 'utf-8', strict: false, returnRawBody: true, onProtoPoisoning: 'ignore' } as const;

function tooLarge(): AppError {
  return new AppError('payload_too_large', `request bodies are limited to ${MAX_BODY_BYTES} bytes`, { headers: { Connection: 'close' } });
}

/** True when the request announces a body: a non-zero Content-Length, or a Transfer-Encoding. */
function announcesBody(ctx: ParameterizedContext): boolean {
  const length = ctx.get('Content-Length');
  return ctx.get('Transfer-Encoding') !== '' || (length !== '' && length.trim() !== '0');
}

/** What the library threw, as our error: 413, 415, 422 json_invalid, or 400 for a broken request. */
function readFailure(err: unknown): never {
  const thrown = err as Error & { status?: number; type?: string; body?: unknown };
  if (thrown.status === 413) throw tooLarge();
  if (thrown.status === 415) throw new AppError('unsupported_media_type', thrown.message);
  if (thrown.status === 400 && typeof thrown.body === 'string') {
    // Refused by JSON.parse: locate the error as Python's json module words it.
    const at = locateJsonError(thrown.body);
    throwValidation([at ? issues.jsonInvalid(at.pos, at.msg) : issues.jsonInvalid(0, thrown.message)]);
  }
  if (thrown.status === 400)
    throw new AppError('bad_request', `the request body could not be read: ${thrown.message}`, { headers: { Connection: 'close' } });
  throw err;
}

/**
 * The request body as parsed JSON, or `undefined` when none was sent. 415 when a body comes with a
 * content type other than JSON (a missing content type is read as JSON), 413 over 64 KiB,
 * 422 `json_invalid` (loc `["body", offset]`) when it does not parse or nests deeper than
 * MAX_JSON_DEPTH levels.
 */
export async function readJsonBody(ctx: ParameterizedContext): Promise<unknown> {
  const type = ctx.get('Content-Type');
  if (type !== '' && !isJsonContentType(type) && announcesBody(ctx)) {
    throw new AppError(
      'unsupported_media_type',
      `request bodies must be application/json, not ${type.split(';')[0]!.trim().slice(0, 100)}`,
    );
  }
  // A request whose connection has already closed is not read: no one is left to answer.
  if (!BODY_METHODS.has(ctx.method) || ctx.req.closed) return undefined;
  let read: { parsed: unknown; raw: string };
  try {
    // co-body types what it read any: with returnRawBody it is the parsed value and the text.
    read = (await coBody.json(ctx.req, READ_OPTIONS)) as { parsed: unknown; raw: string };
  } catch (err) {
    readFailure(err);
  }
  if (read.raw === '') return undefined;
  // JSON.parse does not recurse, but echoing or walking the value might: refuse deep nesting here.
  // A text that parsed nests at most half its length deep (each level opens and closes): a short
  // one, as most bodies are, needs no second scan.
  const deep = read.raw.length > 2 * MAX_JSON_DEPTH ? locateJsonError(read.raw) : undefined;
  if (deep) throwValidation([issues.jsonInvalid(deep.pos, deep.msg)]);
  return read.parsed;
}

/**
 * Reads a JSON object body and its fields in one go (`readObject`, src/domain/fields.ts), every
 * issue in one 422.
 *
 *   const body = await parseJsonBody(ctx, { email: { parse: str(), required: true } });
 *   await parseJsonBody(ctx, {});   // the body must be exactly {}
 */
export async function parseJsonBody<S extends FieldSpecs>(
  ctx: ParameterizedContext,
  spec: S,
  options: { extra?: 'forbid' | 'ignore' } = {},
): Promise<ParsedFields<S>> {
  const parsed = readObject(await readJsonBody(ctx), spec, options);
  if (!parsed.ok) throwValidation(parsed.issues);
  return parsed.value;
}
