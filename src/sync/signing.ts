import { createHmac } from 'node:crypto';
import { SCHEMA_VERSION } from '../domain/vocabulary.ts';

/** `v1=` + hex HMAC-SHA256, keyed with the endpoint secret, over `<timestamp>.<raw body>`. */
export function signBody(secret: string, timestamp: number, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/** The headers of one delivery attempt (docs/contract.md, "Envelope and headers"). */
export function deliveryHeaders(
  event: { eventId: string; eventType: string }, secret: string, timestamp: number, rawBody: string,
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'svc-webhooks/1',
    'X-Service-Event-Id': event.eventId,
    'X-Service-Event-Type': event.eventType,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': signBody(secret, timestamp, rawBody),
    'X-Service-Schema-Version': String(SCHEMA_VERSION),
  };
}
