/*
 * Every closed vocabulary of the service, written once. The TypeScript types below, the store's
 * column types (src/store/database.ts), the fixture schema (src/services/fixtures/schema.ts) and
 * the OpenAPI enums (src/openapi/schemas.ts) are derived from these arrays; the database CHECK
 * constraints are frozen copies in the migrations, held equal to them by
 * test/store/vocabulary-constraints.test.ts. Scopes, document classes, vessel types and
 * requirement groups live beside their rules (scopes.ts, classification.ts, catalogue.ts).
 */

export const PARTNER_KINDS = ['customer', 'external'] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];

export const PARTNER_TIERS = ['management', 'recruiter', 'vessel', 'basic'] as const;
export type PartnerTier = (typeof PARTNER_TIERS)[number];

/** Which data a partner key reads: live data, or test-flagged data. */
export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export const API_KEY_KINDS = ['live', 'test', 'operator'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export const API_KEY_STATUSES = ['active', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const TRADING_AREAS = ['unlimited', 'near_coastal'] as const;
export type TradingArea = (typeof TRADING_AREAS)[number];

export const ASSIGNMENT_STATUSES = ['invited', 'active', 'on_leave', 'signed_off'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** The assignment statuses that put a crew member on a fleet (signed_off does not). */
export const ON_FLEET_STATUSES = ['invited', 'active', 'on_leave'] as const satisfies readonly AssignmentStatus[];
export type OnFleetStatus = (typeof ON_FLEET_STATUSES)[number];

export const CONSENT_CATEGORIES = ['status', 'profile', 'documents', 'compliance'] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];

export const VERIFICATION_STATUSES = ['unverified', 'pending', 'verified'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const BACKGROUND_CHECK_STATUSES = ['not_started', 'pending', 'clear', 'review', 'adverse', 'expired'] as const;
export type BackgroundCheckStatus = (typeof BACKGROUND_CHECK_STATUSES)[number];

export const EMPLOYMENT_SOURCES = ['self_reported', 'employer_verified'] as const;
export type EmploymentSource = (typeof EMPLOYMENT_SOURCES)[number];

export const REVIEW_STATUSES = ['pending', 'approved', 'flagged'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Where a document is in processing; `legacy` was processed before the current pipeline. */
export const PROCESSING_STATES = ['processed', 'processing', 'rejected', 'duplicate', 'placeholder', 'legacy'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];

/** A document's `status` on the wire, derived from is_current and the expiry date. */
export const DOCUMENT_STATUSES = ['active', 'expired', 'superseded'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Content types of stored document files and photos. */
export const FILE_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type FileContentType = (typeof FILE_CONTENT_TYPES)[number];

export const REQUIREMENT_STATUSES = ['met', 'expiring', 'expired', 'missing', 'pending'] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

/** The overall status of a crew member with a required row expired or missing (docs/decisions.md §6). */
export const NON_COMPLIANT = 'non_compliant';
export const OVERALL_STATUSES = ['compliant', 'at_risk', NON_COMPLIANT, 'no_role'] as const;
export type OverallStatus = (typeof OVERALL_STATUSES)[number];

/** Where a compliance answer came from: a live evaluation, or the stored result when it failed. */
export const COMPLIANCE_SOURCES = ['live_evaluator', 'serviceCompliance_fallback'] as const;
export type ComplianceSource = (typeof COMPLIANCE_SOURCES)[number];

/** Sent when a crew member's profile changed: a signal to read the profile, not a diff. */
export const PROFILE_UPDATED = 'crew.profile.updated';

/** Sent ahead of a change the calendar alone brings to a crew member's compliance on a vessel (docs/webhooks.md). */
export const COMPLIANCE_UPCOMING = 'crew.compliance.upcoming';

/** The webhook event types of schema version 1 (docs/contract.md, "Catalogue (v1) and payloads"). */
export const EVENT_TYPES = [
  'crew.document.processed',
  'crew.document.updated',
  'crew.compliance.changed',
  'crew.status.changed',
  PROFILE_UPDATED,
  COMPLIANCE_UPCOMING,
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const SCHEMA_VERSION = 1;

/**
 * The type of a test delivery (`svc admin send-test-event`, docs/webhooks.md, "Testing an
 * endpoint"): not an event type of the catalogue, never subscribed to, carrying no crew data.
 */
export const TEST_EVENT_TYPE = 'svc.test';

export function isEventType(name: unknown): name is EventType {
  return typeof name === 'string' && (EVENT_TYPES as readonly string[]).includes(name);
}

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** `suppressed`: no longer allowed to reach the partner when it was due; never sent, never replayed. */
export const OUTBOX_STATUSES = ['pending', 'delivered', 'dead', 'suppressed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** How one delivery attempt ended; `dead` is the attempt after which the event was dead-lettered. */
export const DELIVERY_OUTCOMES = ['delivered', 'retry', 'failed_permanent', 'dead'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/**
 * Why an event was not sent when it was due (docs/webhooks.md, "Access at send time"): the
 * endpoint no longer subscribes to its type, the crew member left the partner's fleet, the
 * partner no longer holds its scope, or the crew member withdrew the consent.
 */
export const SUPPRESS_REASONS = ['subscription', 'fleet', 'scope', 'consent'] as const;
export type SuppressReason = (typeof SUPPRESS_REASONS)[number];

/** An integer query parameter's range and its value when left out. */
export interface QueryBound {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** `limit` of the fleet page. */
export const FLEET_PAGE_LIMIT = { min: 1, max: 200, default: 50 } as const satisfies QueryBound;

/** `include_documents_expiring_within_days` of the fleet page, in days. */
export const EXPIRING_WINDOW_DAYS = { min: 0, max: 730, default: 30 } as const satisfies QueryBound;

/** Where an event of the events feed stands: `retrying` is pending after a failed attempt. */
export const EVENT_DELIVERY_STATES = ['pending', 'delivered', 'retrying', 'dead', 'suppressed'] as const;
export type EventDeliveryState = (typeof EVENT_DELIVERY_STATES)[number];

/**
 * What kind of failure an attempt without an answer met, as a partner sees it (GET
 * /api/v2/events/{event_id}/attempts): no time limit, address or network detail of svc's side.
 */
export const ATTEMPT_ERROR_CLASSES = [
  'timeout',
  'dns',
  'connection_refused',
  'connection_reset',
  'tls',
  'destination_refused',
  'cancelled',
  'network',
] as const;
export type AttemptErrorClass = (typeof ATTEMPT_ERROR_CLASSES)[number];

/** The most of a receiver's answer body an attempt shows its partner, in characters. */
export const ATTEMPT_EXCERPT_CHARS = 200;

/** `limit` of the events feed. */
export const EVENTS_PAGE_LIMIT = { min: 1, max: 200, default: 50 } as const satisfies QueryBound;

/** How `svc serve` writes its log: `auto` is readable lines on a terminal, JSON lines otherwise. */
/**
 * How a recorded `svc sync` run ended (docs/operations.md): `running` until it does; `ok`;
 * `delivery_failures` when it finished but dead-lettered events or recorded delivery errors;
 * `stopped` by a signal; `error` when it ended on an unexpected error.
 */
export const SYNC_RUN_OUTCOMES = ['running', 'ok', 'delivery_failures', 'stopped', 'error'] as const;
export type SyncRunOutcome = (typeof SYNC_RUN_OUTCOMES)[number];

/** A leased run (`svc sync`) or one that only delivers (`svc sync --deliver-only`). */
export const SYNC_RUN_KINDS = ['sync', 'deliver_only'] as const;
export type SyncRunKind = (typeof SYNC_RUN_KINDS)[number];

/**
 * Where a sync run's time goes (docs/operations.md, "Where a run's time went"): `read` (planning,
 * reading changes and the crew data they concern), `diff` (computing the events), `write` (writing
 * events and snapshots), `deliver` (the delivery stage).
 */
export const SYNC_PHASES = ['read', 'diff', 'write', 'deliver'] as const;
export type SyncPhase = (typeof SYNC_PHASES)[number];

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** pino's levels, as SVC_LOG_LEVEL accepts them. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
