import type { Generated, Kysely, Transaction } from 'kysely';
import type {
  ApiKeyKind, ApiKeyStatus, AssignmentStatus, BackgroundCheckStatus, ConsentCategory, DeliveryOutcome, OutboxStatus, PartnerKind,
  PartnerTier, ProcessingState, ReviewStatus, SuppressReason, SyncRunKind, SyncRunOutcome, TradingArea, VerificationStatus, WebhookEndpointStatus,
} from '../domain/vocabulary.ts';

/*
 * Column conventions, the same on SQLite and Postgres so repositories never branch on dialect:
 * timestamps are ISO-8601 UTC text (`2026-11-22T01:58:26.000Z`), dates are `YYYY-MM-DD` text,
 * booleans are integers 0/1, JSON is text. Converters in the repositories turn rows into domain
 * objects (camelCase, real booleans, parsed JSON).
 */

export type Bool = 0 | 1;

export interface EmployersTable {
  employer_id: string;
  name: string;
}

export interface PartnersTable {
  partner_id: string;
  name: string;
  kind: PartnerKind;
  /** The employer account whose vessels form a customer partner's fleet. */
  employer_id: string | null;
  tier: PartnerTier | null;
  /** JSON array of scope names, or null. */
  scope_overrides: string | null;
  upgraded: Bool;
  /** JSON array: an external partner's contract scopes. */
  contract_scopes: string | null;
  /** Requests per window; null means the configured default. */
  rate_limit: number | null;
  created_at: string;
}

export interface ContractVesselsTable {
  partner_id: string;
  vessel_id: string;
}

export interface VesselsTable {
  vessel_id: string;
  employer_id: string;
  vessel_name: string;
  imo: string | null;
  mmsi: string | null;
  flag_state: string;
  vessel_type: string;
  gross_tonnage: number;
  propulsion_kw: number;
  trading_area: TradingArea;
  is_test: Bool;
}

export interface CrewTable {
  crew_unique_id: string;
  name: string;
  rank: string | null;
  email: string | null;
  /** lower(trim(email)), for the case-insensitive lookup. */
  email_normalized: string | null;
  phone: string | null;
  country_code: string | null;
  nationality: string | null;
  languages: string; // JSON string[]
  skills: string; // JSON string[]
  years_experience: number | null;
  bio: string | null;
  date_of_birth: string | null;
  address: string | null; // JSON {line1,line2,city,region,postal_code,country_code}
  passport: string | null; // JSON {number,issuing_country,expiry_date}
  visas: string; // JSON [{type,country_code,number,expiry_date}]
  employment_history: string; // JSON [{employer_name,vessel_name,role,start_date,end_date,source}]
  photo_file_id: string | null;
  verification_status: VerificationStatus;
  background_check_status: BackgroundCheckStatus;
  profile_updated_at: string;
  updated_at: string;
}

export interface AssignmentsTable {
  assignment_id: string;
  crew_unique_id: string;
  vessel_id: string;
  role: string;
  position_name: string | null;
  status: AssignmentStatus;
  as_of: string;
}

export interface ConsentsTable {
  crew_unique_id: string;
  partner_id: string;
  category: ConsentCategory;
}

export interface FilesTable {
  /** sha256 hex of the bytes: the same file is stored once. */
  file_id: string;
  content_type: string;
  size: number;
  bytes: Uint8Array;
}

export interface DocumentsTable {
  document_id: string;
  crew_unique_id: string;
  type: string;
  category: string;
  title: string;
  issuer: string | null;
  verification_status: VerificationStatus;
  review_status: ReviewStatus;
  issue_date: string | null;
  expiry_date: string | null;
  no_expiry: Bool;
  document_number: string | null;
  processing_state: ProcessingState;
  is_current: Bool;
  /** 0 once withdrawn by the crew member. */
  is_live: Bool;
  superseded_by: string | null;
  document_class: string;
  classification: string; // JSON classification object
  file_id: string | null;
  file_name: string | null;
  processed_at: string | null;
  updated_at: string;
}

export interface RequirementCatalogueTable {
  requirement_key: string;
  position: number;
  definition: string; // JSON RequirementDefinition
}

export interface ComplianceResultsTable {
  crew_unique_id: string;
  vessel_id: string;
  as_of: string;
  result: string; // JSON ComplianceResult (unredacted)
}

export interface ApiKeysTable {
  key_id: string;
  partner_id: string | null;
  kind: ApiKeyKind;
  prefix: string;
  last4: string;
  /** sha256 hex of the full key. */
  key_hash: string;
  status: ApiKeyStatus;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface WebhookEndpointsTable {
  endpoint_id: string;
  partner_id: string;
  url: string;
  subscribed_events: string; // JSON string[]
  secret: string;
  /** A pending or activated rotation: the next secret, and from when deliveries are signed with it. */
  next_secret: string | null;
  next_secret_from: string | null;
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

/**
 * What a partner was last sent about one crew member: digests of each event payload, by subject
 * (see src/sync/diff). One row per partner and crew member keeps the diff to one read per page.
 */
export interface SyncSnapshotsTable {
  partner_id: string;
  crew_unique_id: string;
  state: string; // JSON CrewSnapshot (src/domain/event-catalogue.ts)
  updated_at: string;
  /** YYYY-MM-DD: from this date the pair's payloads may differ by the calendar alone; null: never. */
  next_due: string | null;
}

export interface SyncStateTable {
  partner_id: string;
  baseline_at: string;
  last_run_at: string;
}

export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

export interface AuditLogTable {
  audit_id: Generated<number>;
  request_id: string;
  at: string;
  partner_id: string | null;
  key_id: string | null;
  method: string;
  route: string | null;
  path: string;
  crew_unique_id: string | null;
  document_id: string | null;
  status: number;
  latency_ms: number;
  client_ip: string | null;
}

/**
 * One captured write to a table events depend on (migration 0300-change-capture). `tx` is the
 * writing transaction's id on Postgres, 0 on SQLite; (tx, seq) orders what sync reads.
 */
export interface ChangesTable {
  seq: Generated<number | string>;
  tx: Generated<number | string>;
  table_name: string;
  row_key: string;
  crew_unique_id: string | null;
  partner_id: string | null;
}

/** One `svc sync` run (migration 1100-sync-runs), read by the metrics at scrape time. */
export interface SyncRunsTable {
  run_id: string;
  kind: SyncRunKind;
  started_at: string;
  finished_at: string | null;
  outcome: SyncRunOutcome;
  events_created: number;
  delivered: number;
  dead_lettered: number;
  delivery_errors: number;
}

/** A slot of a webhook endpoint's requests in flight, across processes (migration 1200-endpoint-send-slots). */
export interface EndpointSendSlotsTable {
  partner_id: string;
  slot: number;
  held_by: string | null;
  held_until: string | null;
}

export interface SettingsTable {
  name: string;
  value: string;
}

/** Hits per rate-limit bucket and fixed window (migration 0100-rate-limits); `window_start` ISO-8601 UTC. */
export interface RateLimitsTable {
  bucket: string;
  window_start: string;
  hits: number;
}

/** One row (`id` 1): the counter every write to an API key or partner bumps (migration 0600-auth-version). */
export interface AuthVersionTable {
  id: number;
  version: number | string;
}

export interface Database {
  employers: EmployersTable;
  partners: PartnersTable;
  contract_vessels: ContractVesselsTable;
  vessels: VesselsTable;
  crew: CrewTable;
  assignments: AssignmentsTable;
  consents: ConsentsTable;
  files: FilesTable;
  documents: DocumentsTable;
  requirement_catalogue: RequirementCatalogueTable;
  compliance_results: ComplianceResultsTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  outbox_events: OutboxEventsTable;
  delivery_attempts: DeliveryAttemptsTable;
  dead_letters: DeadLettersTable;
  sync_snapshots: SyncSnapshotsTable;
  sync_state: SyncStateTable;
  leases: LeasesTable;
  audit_log: AuditLogTable;
  settings: SettingsTable;
  changes: ChangesTable;
  rate_limits: RateLimitsTable;
  auth_version: AuthVersionTable;
  sync_runs: SyncRunsTable;
  endpoint_send_slots: EndpointSendSlotsTable;
}

/** The store handle passed to repositories: the database itself or an open transaction. */
export type Db = Kysely<Database> | Transaction<Database>;
