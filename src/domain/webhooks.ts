import { DEFAULT_NOTICE_LEAD_DAYS } from './compliance/notices.ts';
import type { Scope } from './scopes.ts';
import type { EventType, OutboxStatus, SuppressReason, WebhookEndpointStatus } from './vocabulary.ts';

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
  /**
   * Ed25519 signatures (Standard Webhooks `v1a`), when the operator chose them: the `whsk_` secret
   * key, stored as secrets are and never shown, and the next one during a rotation (same switch time).
   */
  signingKey?: string | null;
  nextSigningKey?: string | null;
  /** The lead times, in days, of its compliance notices, as chosen at registration; absent or null: the default. */
  noticeLeadDays?: readonly number[] | null;
  status: WebhookEndpointStatus;
  createdAt: string;
  updatedAt: string;
  /** As the store keeps it; absent on an endpoint not yet stored. */
  health?: EndpointHealth;
}

/** The lead times of an endpoint's compliance notices: those chosen at registration, or the default. */
export function noticeLeadDaysOf(endpoint: Pick<WebhookEndpoint, 'noticeLeadDays'>): readonly number[] {
  return endpoint.noticeLeadDays ?? DEFAULT_NOTICE_LEAD_DAYS;
}

/**
 * How an endpoint's delivery attempts have gone (docs/webhooks.md, "Endpoint health"): a delivered
 * attempt resets the failures; an endpoint failing every attempt for SVC_WEBHOOK_DISABLE_AFTER_DAYS
 * is disabled with the reason and time, both cleared when it is re-enabled.
 */
export interface EndpointHealth {
  consecutiveFailures: number;
  failingSince: string | null;
  lastSuccessAt: string | null;
  disabledReason: string | null;
  disabledAt: string | null;
}

/**
 * The secret a delivery signed at `at` uses: the current one until a rotation's time has come,
 * then the next. One signature per delivery, as the contract has it; the partner accepts both
 * secrets while the rotation is pending.
 */
export function signingSecret(endpoint: WebhookEndpoint, at: Date): string {
  return endpoint.nextSecret && rotationDue(endpoint, at) ? endpoint.nextSecret : endpoint.secret;
}

/** Whether a rotation's switch time (`nextSecretFrom`, shared by the secret and the Ed25519 key) has come at `at`; false without one. */
export function rotationDue(endpoint: Pick<WebhookEndpoint, 'nextSecretFrom'>, at: Date): boolean {
  return Boolean(endpoint.nextSecretFrom) && Date.parse(endpoint.nextSecretFrom!) <= at.getTime();
}

const STANDARD_PREFIX = 'whsec_';
/** Canonical standard base64 (padded), as every Standard Webhooks library decodes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Whether one secret serves both signature schemes: the contract's (HMAC keyed with the whole
 * string) and Standard Webhooks' (keyed with the bytes after `whsec_`, standard base64, 24 to 64
 * bytes as the specification asks). Secrets generated before svc sent the standard headers were
 * base64url without padding and do not.
 */
export function servesStandardWebhooks(secret: string): boolean {
  if (!secret.startsWith(STANDARD_PREFIX)) return false;
  const encoded = secret.slice(STANDARD_PREFIX.length);
  if (!BASE64.test(encoded)) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** The Standard Webhooks key of a secret that serves both schemes. */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64');
}

/** Whether deliveries to the endpoint carry the Standard Webhooks headers (its current secret serves both schemes). */
export function endpointSendsStandardWebhooks(endpoint: WebhookEndpoint, at: Date): boolean {
  return servesStandardWebhooks(signingSecret(endpoint, at));
}

/** An event the sync diff writes to the outbox: pending, and due as soon as it is written. */
export interface NewOutboxEvent {
  eventId: string;
  partnerId: string;
  eventType: EventType;
  crewUniqueId: string;
  /** The instant of the run that found the change: when the event occurred, is created and is first due. */
  at: string;
  /** The envelope, exactly the bytes every attempt delivers. */
  body: string;
  /** The scope its payload needs besides its type's, when the payload cannot show it (PlannedEvent.payloadScope). */
  payloadScope: Scope | null;
  /** Its number among the partner's events (taken in the transaction that writes it) and its subject's key; both in the body. */
  sequence: number;
  subject: string;
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
  /** The scope its payload needs besides its type's, recorded when it was built (crew:medical:read: medical data). */
  payloadScope: Scope | null;
  /** Its number among the partner's events and its subject's key (docs/webhooks.md, "Order: sequence and subject"). */
  sequence: number | null;
  subject: string | null;
}
