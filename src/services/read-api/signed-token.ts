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
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** The payload of a token signed with `key`, or null when it is malformed or its signature is wrong. */
export function verifyToken(key: Buffer, token: string): Record<string, unknown> | null {
  const m = /^([A-Za-z0-9_-]{1,4096})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = mac(key, m[1]!);
  const given = Buffer.from(m[2]!, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
