import type { OutboxStatus, WebhookEndpointStatus } from './vocabulary.ts';

/** A partner's webhook endpoint (one per partner), with its signing secret. */
export interface WebhookEndpoint {
  endpointId: string;
  partnerId: string;
  url: string;
  subscribedEvents: string[];
  secret: string;
  status: WebhookEndpointStatus;
  createdAt: string;
  updatedAt: string;
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
}
