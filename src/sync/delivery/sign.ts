import type { OutboxEvent, WebhookEndpoint } from '../../domain/webhooks.ts';
import type { Clock } from '../../domain/clock.ts';
import { deliveryHeaders } from '../signing.ts';

/**
 * Stage 3, sign: the headers of one attempt, signed afresh (the same event id and body, a new
 * timestamp). The secrets are those in force at `at` (the business clock: a rotation's switch);
 * the timestamp is the real time, which a receiver compares with its own clock whatever SVC_NOW
 * says. Every header comes from src/sync/signing.ts.
 */
export function signAttempt(event: OutboxEvent, endpoint: WebhookEndpoint, at: Date, wallClock: Clock): Record<string, string> {
  const signedAt = Math.floor(wallClock().getTime() / 1000);
  return deliveryHeaders(endpoint, event, at, signedAt, event.body);
}
