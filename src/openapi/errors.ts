import { ALL_ERROR_CODES, isCliOnly, type ErrorCode } from '../domain/app-error.ts';
import { ref, type JsonObject } from './types.ts';

/** Every `detail.code` the HTTP API can answer with (docs/decisions.md §1): the codes of src/domain/app-error.ts but the CLI's own. */
export const ERROR_CODES: readonly ErrorCode[] = ALL_ERROR_CODES.filter((code) => !isCliOnly(code));

const header = (description: string, schema: JsonObject = { type: 'string' }) => ({ description, schema });

export const HEADERS: Record<string, JsonObject> = {
  'X-Request-Id': header('`req_…`: the id of this call in the audit log; quote it when reporting a problem', {
    type: 'string',
    pattern: '^req_',
  }),
  'RateLimit-Policy': header("the partner's quota, e.g. `600;w=60` (600 requests per 60 s window)"),
  RateLimit: header('the current window, e.g. `limit=600, remaining=599, reset=42` (reset in seconds)'),
  'Retry-After': header('seconds to wait before retrying', { type: 'integer' }),
  'Cache-Control': header(
    '`no-store` on every /api/v2 answer, errors included (`private, no-store` for files and photos): answers hold personal data',
  ),
  'X-Content-Type-Options': header('`nosniff` on every /api/v2 answer', { type: 'string', const: 'nosniff' }),
  'Referrer-Policy': header('`no-referrer` on every /api/v2 answer', { type: 'string', const: 'no-referrer' }),
  'WWW-Authenticate': header(
    '`Bearer realm="partner-api"` (with `error="invalid_token"` when a key was sent), or `Bearer error="insufficient_scope", scope="…"`',
  ),
  ETag: header('strong validator of this answer; send it back as If-None-Match to get 304 while the data is unchanged'),
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers every response carries, plus the rate limit headers of authenticated ones. */
export function responseHeaders(rateLimited: boolean, ...extra: string[]): JsonObject {
  const names = ['X-Request-Id', ...(rateLimited ? ['RateLimit-Policy', 'RateLimit'] : []), ...extra];
  return Object.fromEntries(names.map((n) => [n, headerRef(n)]));
}

/** The headers every /api/v2 answer carries (src/http/middleware/api-headers.ts), as references. */
export function apiResponseHeaders(): JsonObject {
  return Object.fromEntries(['Cache-Control', 'X-Content-Type-Options', 'Referrer-Policy'].map((n) => [n, headerRef(n)]));
}

/** A JSON success response. */
export function jsonResponse(description: string, schema: string, rateLimited = true, extraHeaders: string[] = []): JsonObject {
  return { description, headers: responseHeaders(rateLimited, ...extraHeaders), content: { 'application/json': { schema: ref(schema) } } };
}

const STATUS_TEXT: Record<number, string> = {
  401: 'Missing, malformed, unknown, revoked or wrong kind of key',
  403: 'Refused',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Body over 64 KiB',
  415: 'Body sent with a content type other than application/json',
  422: 'Invalid path, query or body input: every problem at once, pydantic-style',
  429: 'Rate limit exceeded',
  500: 'Unexpected error (no details; quote X-Request-Id)',
  503: 'Unavailable',
};

const EXTRA_HEADERS: Record<number, string[]> = { 401: ['WWW-Authenticate'], 429: ['Retry-After'], 503: ['Retry-After'] };

/**
 * Error responses by status with the codes each may carry, e.g.
 * `errorResponses({ 403: ['insufficient_scope', 'consent_required'], 404: ['crew_not_found'] })`.
 * 401, 429 and 500 are added for authenticated operations unless `authenticated` is false.
 */
export function errorResponses(byStatus: Record<number, ErrorCode[] | 'validation'>, authenticated = true): Record<string, JsonObject> {
  // Any call may be refused with 503 store_unavailable while the audit log cannot take its row.
  const base: Record<number, ErrorCode[] | 'validation'> = authenticated
    ? { 401: ['invalid_api_key'], 429: ['rate_limited'], 500: ['internal_error'], 503: ['store_unavailable'] }
    : { 500: ['internal_error'], 503: ['store_unavailable'] };
  const all: Record<number, ErrorCode[] | 'validation'> = { ...base, ...byStatus };
  const own = byStatus[503];
  if (Array.isArray(own)) all[503] = [...new Set([...own, 'store_unavailable' as const])];
  const out: Record<string, JsonObject> = {};
  for (const [status, codes] of Object.entries(all)) {
    const statusCode = Number(status);
    const extra = [
      ...(EXTRA_HEADERS[statusCode] ?? []),
      ...(statusCode === 403 && codes !== 'validation' && codes.includes('insufficient_scope') ? ['WWW-Authenticate'] : []),
    ];
    // Authenticated errors after the rate limit carry its headers too; they are documented, not required.
    const headers = responseHeaders(authenticated && statusCode !== 401, ...extra);
    out[status] =
      codes === 'validation'
        ? { description: STATUS_TEXT[statusCode], headers, content: { 'application/json': { schema: ref('ValidationError') } } }
        : {
            description: `${STATUS_TEXT[statusCode] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
            headers,
            content: { 'application/json': { schema: ref('Error') } },
          };
  }
  return out;
}
