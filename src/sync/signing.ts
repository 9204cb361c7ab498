import { createHmac, sign } from 'node:crypto';
import { privateKeyOf, signingKeysAt } from '../domain/ed25519-keys.ts';
import { rotationDue, servesStandardWebhooks, signingSecret, standardWebhooksKey, type WebhookEndpoint } from '../domain/webhooks.ts';
import { SCHEMA_VERSION } from '../domain/vocabulary.ts';

/** `v1=` + hex HMAC-SHA256, keyed with the endpoint secret, over `<timestamp>.<raw body>`. */
export function signBody(secret: string, timestamp: number, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/** Standard Webhooks `v1,` + base64 HMAC-SHA256 over `<id>.<timestamp>.<raw body>`, keyed with the secret's decoded bytes. */
export function standardSignature(secret: string, id: string, timestamp: number, rawBody: string): string {
  return `v1,${createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestamp}.${rawBody}`).digest('base64')}`;
}

/** Standard Webhooks `v1a,` + base64 Ed25519 signature over `<id>.<timestamp>.<raw body>`, with a `whsk_` secret key. */
export function ed25519Signature(secretKey: string, id: string, timestamp: number, rawBody: string): string {
  return `v1a,${sign(null, Buffer.from(`${id}.${timestamp}.${rawBody}`), privateKeyOf(secretKey)).toString('base64')}`;
}

/**
 * The secrets a Standard Webhooks signature is made with at `at`: the one the contract signs with
 * and, while a rotation is pending, the next one too (the standard lets a receiver holding either
 * verify). Only secrets that serve both schemes (docs/webhooks.md, "Standard Webhooks").
 */
function standardSecrets(endpoint: WebhookEndpoint, at: Date, contractSecret: string): string[] {
  const pending = endpoint.nextSecret && endpoint.nextSecretFrom && !rotationDue(endpoint, at) ? [endpoint.nextSecret] : [];
  return [contractSecret, ...pending].filter(servesStandardWebhooks);
}

/**
 * The headers of one delivery attempt, and the only place they are built: the contract's
 * `X-Service-*` set (docs/contract.md, "Envelope and headers"), signed with the secret in force at
 * `at` (the business clock), and the Standard Webhooks set when a secret serves both schemes or the
 * endpoint has Ed25519 keys: `webhook-signature` lists the `v1` signatures, then the `v1a` ones.
 * `signedAt` is the real time in whole seconds: a receiver compares it with its own clock.
 */
export function deliveryHeaders(
  endpoint: WebhookEndpoint,
  event: { eventId: string; eventType: string },
  at: Date,
  signedAt: number,
  rawBody: string,
): Record<string, string> {
  const secret = signingSecret(endpoint, at);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'svc-webhooks/1',
    'X-Service-Event-Id': event.eventId,
    'X-Service-Event-Type': event.eventType,
    'X-Service-Timestamp': String(signedAt),
    'X-Service-Signature': signBody(secret, signedAt, rawBody),
    'X-Service-Schema-Version': String(SCHEMA_VERSION),
  };
  const standard = [
    ...standardSecrets(endpoint, at, secret).map((s) => standardSignature(s, event.eventId, signedAt, rawBody)),
    ...signingKeysAt(endpoint, at).map((k) => ed25519Signature(k, event.eventId, signedAt, rawBody)),
  ];
  if (standard.length > 0) {
    headers['webhook-id'] = event.eventId;
    headers['webhook-timestamp'] = String(signedAt);
    headers['webhook-signature'] = standard.join(' ');
  }
  return headers;
}
