import type { OutboxStatus, SuppressReason, WebhookEndpointStatus } from './vocabulary.ts';

/** A partner's webhook endpoint (one per partner), with its signing secret. */
export interface WebhookEndpoint {
  endpointId: string;
  partnerId: string;
  url: string;
  subscribedEvents: string[];
  secret: string;
  /** A rotation (`svc admin rotate-secret`): the next secret, signing from `nextSecretFrom` on. */
  nextSecret?: string | null;
  nextSecretFrom?: string | null;
  status: WebhookEndpointStatus;
  createdAt: string;
  updatedAt: string;
}

/**
 * The secret a delivery signed at `at` uses: the current one until a rotation's time has come,
 * then the next. One signature per delivery, as the contract has it; the partner accepts both
 * secrets while the rotation is pending.
 */
export function signingSecret(e: WebhookEndpoint, at: Date): string {
  return e.nextSecret && e.nextSecretFrom && Date.parse(e.nextSecretFrom) <= at.getTime() ? e.nextSecret : e.secret;
}

/** An event in the outbox: the exact body to deliver and where its delivery stands. */
export interface OutboxEvent {
  eventId: string;
  partnerId: string;
  eventType: string;
  crewUniqueId: string | null;
  occurredAt: string;
  body: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  lockedBy: string | null;
  lockedUntil: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** Set when the access rule refused the event when it was due (status `suppressed`). */
  suppressedReason: SuppressReason | null;
  suppressedAt: string | null;
}
