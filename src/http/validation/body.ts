import type { ParameterizedContext } from 'koa';
import { AppError } from '../../domain/app-error.ts';
import { readFields, type FieldSpec, type ParsedFields } from './fields.ts';
import { issues, throwValidation, type ValidationIssue } from './issues.ts';
import { locateJsonError } from './json-error.ts';

/** Largest request body accepted (docs/decisions.md §1: 413 over 64 KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** True for `application/json` and `application/*+json`, whatever their parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && JSON_TYPE.test(header.split(';')[0]!.trim());
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', `request bodies are limited to ${MAX_BODY_BYTES} bytes`, { headers: { Connection: 'close' } });
}

/** Reads the raw body, refusing anything over the limit before or while it arrives. */
async function readRaw(ctx: ParameterizedContext<any>, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length') || 'NaN');
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** `json_invalid` at the character offset where parsing stopped, worded as Python's json module. */
function jsonIssue(text: string): ValidationIssue {
  const at = locateJsonError(text);
  return at ? issues.jsonInvalid(at.pos, at.msg) : issues.jsonInvalid(0, 'Expecting value');
}

/**
 * The request body as parsed JSON, or `undefined` when none was sent. 415 when a body comes with a
 * content type other than JSON (a missing content type is read as JSON), 413 over 64 KiB,
 * 422 `json_invalid` (loc `["body", offset]`) when it does not parse.
 */
export async function readJsonBody(ctx: ParameterizedContext<any>, limit = MAX_BODY_BYTES): Promise<unknown> {
  const raw = await readRaw(ctx, limit);
  if (raw.length === 0) return undefined;
  const type = ctx.get('Content-Type');
  if (type !== '' && !isJsonContentType(type)) {
    throw new AppError('unsupported_media_type', `request bodies must be application/json, not ${type.split(';')[0]!.trim().slice(0, 100)}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throwValidation([issues.jsonInvalid(0, 'body is not valid UTF-8')]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throwValidation([jsonIssue(text)]);
  }
}

/**
 * Reads a JSON object body and its fields in one go, reporting every issue at once: `missing`
 * (no body, or `null`), `model_attributes_type` (not an object), `extra_forbidden` per unknown
 * key (unless `extra: 'ignore'`), then each field's own issues.
 *
 *   const body = await parseJsonBody(ctx, { email: { parse: str(), required: true } });
 *   await parseJsonBody(ctx, {});   // the body must be exactly {}
 */
export async function parseJsonBody<S extends Record<string, FieldSpec<any>>>(
  ctx: ParameterizedContext<any>, spec: S, options: { extra?: 'forbid' | 'ignore' } = {},
): Promise<ParsedFields<S>> {
  const body = await readJsonBody(ctx);
  if (body === undefined || body === null) throwValidation([issues.missing(['body'], null)]);
  if (typeof body !== 'object' || Array.isArray(body)) throwValidation([issues.modelAttributesType(['body'], body)]);
  const object = body as Record<string, unknown>;
  const { value, issues: found } = readFields(object, spec, 'body', object);
  if ((options.extra ?? 'forbid') === 'forbid') {
    for (const [key, v] of Object.entries(object)) if (!(key in spec)) found.push(issues.extraForbidden(['body', key], v));
  }
  if (found.length > 0) throwValidation(found);
  return value;
}
