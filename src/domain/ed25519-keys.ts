import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { rotationDue, type WebhookEndpoint } from './webhooks.ts';

/*
 * Standard Webhooks' asymmetric scheme (docs/webhooks.md, "Ed25519 signatures (v1a)"): a secret key
 * is `whsk_` + standard base64 of the 32-byte Ed25519 seed, its public key `whpk_` + standard base64
 * of the 32 raw public key bytes, as the standard's libraries read them.
 */

export const SECRET_KEY_PREFIX = 'whsk_';
export const PUBLIC_KEY_PREFIX = 'whpk_';

// The fixed DER head of a PKCS #8 Ed25519 private key (RFC 8410), before its 32-byte seed.
const PKCS8_HEAD = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The signing key of a stored `whsk_` secret key. */
export function privateKeyOf(secretKey: string): KeyObject {
  const seed = Buffer.from(secretKey.slice(SECRET_KEY_PREFIX.length), 'base64');
  return createPrivateKey({ key: Buffer.concat([PKCS8_HEAD, seed]), format: 'der', type: 'pkcs8' });
}

/** The `whpk_` public key a partner verifies `v1a` signatures with. */
export function publicKeyOf(secretKey: string): string {
  const jwk = createPublicKey(privateKeyOf(secretKey)).export({ format: 'jwk' });
  return `${PUBLIC_KEY_PREFIX}${Buffer.from(jwk.x!, 'base64url').toString('base64')}`;
}

/** The `whsk_` secret key of a key pair made by node:crypto. */
export function toSecretKey(privateKey: KeyObject): string {
  const jwk = privateKey.export({ format: 'jwk' });
  return `${SECRET_KEY_PREFIX}${Buffer.from(jwk.d!, 'base64url').toString('base64')}`;
}

/**
 * The secret keys that sign at `at`: the one in force (the next one once the rotation's time has
 * come) and, while a rotation is pending, the next one too, as `webhook-signature` carries both
 * HMAC signatures meanwhile. Empty for an endpoint without Ed25519 signatures.
 */
export function signingKeysAt(endpoint: WebhookEndpoint, at: Date): string[] {
  const current = keyInForce(endpoint, at);
  const pending = endpoint.nextSigningKey && !rotationDue(endpoint, at) ? [endpoint.nextSigningKey] : [];
  return current ? [current, ...pending] : pending;
}

/** The public keys a partner trusts at `at` (the keys of `signingKeysAt`). */
export function publicKeysAt(endpoint: WebhookEndpoint, at: Date): string[] {
  return signingKeysAt(endpoint, at).map(publicKeyOf);
}

/** The secret key in force at `at` (what a rotation or a registration keeps), or null. */
export function keyInForce(endpoint: WebhookEndpoint, at: Date): string | null {
  return endpoint.nextSigningKey && rotationDue(endpoint, at) ? endpoint.nextSigningKey : (endpoint.signingKey ?? null);
}
