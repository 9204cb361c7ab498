import type { Bool } from './columns.ts';

/* Ingestion's own state (migration 1300-ingest; docs/ingest.md). */

/** The newest version the source sent of one entity, and its full record after it (null once deleted). */
export interface IngestVersionsTable {
  entity: string;
  entity_id: string;
  version: number | string;
  record: string | null; // JSON: the entity's fields as in the change format
  deleted: Bool;
  updated_at: string;
}

/** A change waiting for an entity it refers to; rejected once `held_until` passes. */
export interface IngestHeldTable {
  entity: string;
  entity_id: string;
  version: number | string;
  change: string; // JSON: the change as received
  /** Where it came from: `file:line`, `request:line`, `amqp:message-id`. */
  origin: string;
  reason: string;
  /** The crew member it is about, if any: an erasure drops what waits about them. */
  crew_unique_id: string | null;
  held_at: string;
  held_until: string;
}

/** The answer of one POST /api/v2/admin/changes, kept by its Idempotency-Key. */
export interface IngestRequestsTable {
  idempotency_key: string;
  body_sha256: string;
  answer: string; // JSON
  created_at: string;
}
