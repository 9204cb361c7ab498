import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Compact signed tokens: base64url(JSON payload) "." base64url(HMAC-SHA256(key, payload part)).
 * Opaque to partners; integrity, not secrecy, is what they protect (they carry only ids the
 * holder may already see).
 */

function mac(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

export function signToken(key: Buffer, payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/**
 * The payload of a token signed with `key`, or null when it is malformed or its signature is
 * wrong. The signature must be the canonical base64url of the MAC: its last character carries two
 * unused bits, and a decoder ignores them, so the text is re-encoded and compared as well as the
 * bytes (in constant time).
 */
export function verifyToken(key: Buffer, token: string): Record<string, unknown> | null {
  const match = /^([A-Za-z0-9_-]{1,4096})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const expected = mac(key, match[1]!);
  const given = Buffer.from(match[2]!, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (given.toString('base64url') !== match[2]) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** One run of characters a token (or its percent-encoded dot) is made of. */
const TOKEN_RUN = /[A-Za-z0-9_.%-]{45,}/g;
const SIGNATURE_START = /^[A-Za-z0-9_-]{43}/;

/** True when some dot in the run is preceded by a token character and followed by 43 of them. */
function holdsToken(run: string): boolean {
  const parts = run.replace(/%2e/gi, '.').split('.');
  return parts.some((part, i) => i > 0 && /[A-Za-z0-9_-]$/.test(parts[i - 1]!) && SIGNATURE_START.test(part));
}

/**
 * `text` with every run of characters that holds a signed token (also with something stuck to
 * it) replaced by `{token}`. A file link is a credential for its lifetime: paths and messages pass
 * through this before they reach a log line, an audit row or an error answer. Linear in the
 * length of `text`.
 */
export function redactSignedTokens(text: string): string {
  return text.replace(TOKEN_RUN, (run) => (holdsToken(run) ? '{token}' : run));
}
