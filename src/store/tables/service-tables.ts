import type { Generated } from 'kysely';
import type { Bool } from './columns.ts';
import type { ApiKeyKind, ApiKeyStatus, SyncRunKind, SyncRunOutcome } from '../../domain/vocabulary.ts';

/*
 * What the service keeps for itself: keys, sync state and runs, leases, the audit log, change
 * capture, settings and rate limits (column conventions: ./columns.ts).
 */

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

/** One share of a diff round split across processes (migration 1900-diff-shares, src/sync/diff/shares.ts). */
export interface DiffSharesTable {
  round_id: string;
  share: number;
  partner_ids: string; // JSON string[]
  done: Bool;
  /** The process diffing it, until `claimed_until` (ISO instant, real time). */
  claimed_by: string | null;
  claimed_until: string | null;
  result: string | null; // JSON Record<partner id, events created>
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
  /** The trace the call was recorded under (migration 1700-audit-trace-id); null when not traced. */
  trace_id: string | null;
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
  /** Milliseconds per phase and pages diffed (migration 1510-sync-run-phases); null until the run ends. */
  read_ms: number | null;
  diff_ms: number | null;
  write_ms: number | null;
  deliver_ms: number | null;
  pages: number | null;
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
