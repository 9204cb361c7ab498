/*
 * What a 422 may echo of the client's input (docs/api.md, "Echoed input"). pydantic echoes input
 * whole; this service bounds it so that an error answer can never be large, deep or hold a
 * credential: strings are cut, containers are cut in depth, breadth and total size, the value of
 * any secret-like field is replaced, and so is the user-info of a URL. In domain, not
 * src/http/validation/, because the CLI uses it too: every issue is built through it
 * (validation-issues.ts), also those of `svc admin register-webhook` and `rotate-secret`.
 */

export const MAX_INPUT_CHARS = 200;
/** Containers below this depth (the echoed value itself is depth 0) become TRUNCATED. */
export const MAX_INPUT_DEPTH = 4;
/** Entries kept of one array or object. */
export const MAX_INPUT_ENTRIES = 20;
/** Values (scalars and containers) in one echo, all levels together. */
export const MAX_INPUT_VALUES = 100;
/** Characters of strings and keys in one echo, all levels together. */
export const MAX_INPUT_TEXT = 2000;

export const REDACTED = '[redacted]';
export const TRUNCATED = '[truncated]';

const SECRET_NAME = /secret|passw(?:or)?d|token|key|auth|credential|signature|cookie/i;
/** The user-info part of a URL (`https://user:password@host`). */
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi;
/** A URL authority that a cut left unfinished: it may be user-info. */
const CUT_AUTHORITY = /(:\/\/)[^/?#\s]*$/;

/** True for a field name whose value must never be echoed: `secret`, `Secret`, `api_key`, `password`… */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * A copy of `value` fit to echo as a validation issue's `input`. `name` is the field the value
 * was found under (the last element of the loc): a secret-like name redacts it whole.
 * Walks at most MAX_INPUT_DEPTH levels: client input never drives unbounded recursion.
 */
export function echoInput(value: unknown, name?: string | number): unknown {
  if (typeof name === 'string' && isSecretName(name) && value !== undefined && value !== null) return REDACTED;
  let budget = MAX_INPUT_VALUES;
  let text = MAX_INPUT_TEXT;
  const cut = (raw: string): string => {
    const shown = raw.slice(0, Math.min(MAX_INPUT_CHARS, text));
    text -= shown.length;
    return shown;
  };
  // The patterns only ever run over a short prefix: they must not cost more on long input.
  const shownString = (raw: string): string => {
    const redacted = raw.slice(0, MAX_INPUT_CHARS * 5).replace(URL_USERINFO, `$1${REDACTED}@`);
    const shown = cut(redacted);
    return shown.length < redacted.length ? shown.replace(CUT_AUTHORITY, `$1${REDACTED}`) : shown;
  };
  const copy = (input: unknown, depth: number): unknown => {
    budget--;
    if (typeof input === 'string') return text <= 0 ? TRUNCATED : shownString(input);
    if (input === null || typeof input !== 'object') return input;
    if (depth >= MAX_INPUT_DEPTH || budget <= 0) return TRUNCATED;
    if (Array.isArray(input)) {
      const out: unknown[] = [];
      for (const item of input) {
        if (out.length >= MAX_INPUT_ENTRIES || budget <= 0 || text <= 0) {
          out.push(TRUNCATED);
          break;
        }
        out.push(copy(item, depth + 1));
      }
      return out;
    }
    const entries: [string, unknown][] = [];
    for (const key of Object.keys(input)) {
      if (entries.length >= MAX_INPUT_ENTRIES || budget <= 0 || text <= 0) {
        entries.push([TRUNCATED, TRUNCATED]);
        break;
      }
      const item = (input as Record<string, unknown>)[key];
      const shownKey = cut(key);
      entries.push([shownKey, isSecretName(key) && item !== null ? (budget--, REDACTED) : copy(item, depth + 1)]);
    }
    // fromEntries defines own properties, so a `__proto__` key stays data.
    return Object.fromEntries(entries);
  };
  return copy(value, 0);
}
