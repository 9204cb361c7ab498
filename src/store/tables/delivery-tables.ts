import type { Generated } from 'kysely';
import type { Scope } from '../../domain/scopes.ts';
import type { DeliveryOutcome, OutboxStatus, SuppressReason, WebhookEndpointStatus } from '../../domain/vocabulary.ts';

/* Webhook delivery: endpoints, the outbox, attempts, dead letters, request slots (conventions: ./columns.ts). */

export interface WebhookEndpointsTable {
  endpoint_id: string;
  partner_id: string;
  url: string;
  subscribed_events: string; // JSON string[]
  secret: string;
  /** A pending or activated rotation: the next secret, and from when deliveries are signed with it. */
  next_secret: string | null;
  next_secret_from: string | null;
  /** Ed25519 (`v1a`) secret keys, `whsk_…`, stored as given like the secrets; null without Ed25519 signatures. */
  signing_key: string | null;
  next_signing_key: string | null;
  /** JSON number[]: the lead times of its compliance notices; null for the default (src/domain/compliance/notices.ts). */
  notice_lead_days: string | null;
  status: WebhookEndpointStatus;
  created_at: string;
  updated_at: string;
  /** Health, updated with each recorded attempt: failed attempts in a row, since when, the last delivered one. */
  consecutive_failures: Generated<number>;
  failing_since: string | null;
  last_success_at: string | null;
  /** Set when `svc sync` disabled the endpoint for failing too long; cleared when it is re-enabled. */
  disabled_reason: string | null;
  disabled_at: string | null;
}

export interface OutboxEventsTable {
  event_id: string;
  partner_id: string;
  event_type: string;
  crew_unique_id: string | null;
  occurred_at: string;
  /** The exact JSON body delivered; signed as is. */
  body: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  /** Lease of a sync run on this event, so two runs never deliver the same attempt. */
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  delivered_at: string | null;
  /** Set with status `suppressed`: which part of the access rule the event failed, and when. */
  suppressed_reason: SuppressReason | null;
  suppressed_at: string | null;
  /** The scope the payload needs besides its type's, fixed when it was built (migration 1310-outbox-payload-scope). */
  payload_scope: Scope | null;
  /** Its number among the partner's events, and the key of its subject (migration 1500-event-sequence); null on a test event. */
  sequence: number | null;
  subject: string | null;
}

/** The last sequence number given to each partner's events; bumped in the transaction that writes them. */
export interface PartnerEventSequencesTable {
  partner_id: string;
  last_sequence: number;
}

export interface DeliveryAttemptsTable {
  attempt_id: Generated<number>;
  event_id: string;
  attempt_no: number;
  attempted_at: string;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
  outcome: DeliveryOutcome;
}

export interface DeadLettersTable {
  event_id: string;
  partner_id: string;
  event_type: string;
  reason: string;
  dead_at: string;
  replayed_at: string | null;
}

/** A slot of a webhook endpoint's requests in flight, across processes (migration 1200-endpoint-send-slots). */
export interface EndpointSendSlotsTable {
  partner_id: string;
  slot: number;
  held_by: string | null;
  held_until: string | null;
}
