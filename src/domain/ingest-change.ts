/*
 * The change format the platform feeds svc with (docs/ingest.md): one change per NDJSON line,
 * naming the entity, its id, an operation and the source's version of that entity.
 */

/** Entities a change may name, spelled as the change format spells them. */
export const INGEST_ENTITIES = ['employer', 'partner', 'vessel', 'crew', 'assignment', 'consent', 'document', 'requirement'] as const;
export type IngestEntity = (typeof INGEST_ENTITIES)[number];

/** `upsert`: the full record; `patch`: a JSON Merge Patch (RFC 7396) of the record; `delete`. */
export const INGEST_OPS = ['upsert', 'patch', 'delete'] as const;
export type IngestOp = (typeof INGEST_OPS)[number];

/** What became of one change. */
export const INGEST_OUTCOMES = ['applied', 'stale', 'held', 'rejected'] as const;
export type IngestOutcome = (typeof INGEST_OUTCOMES)[number];

/** A consent's id: the crew member and the partner the categories are given to. */
export interface ConsentId {
  crew_unique_id: string;
  partner_id: string;
}

/** One change, its envelope checked (its `data` is checked against the entity's record later). */
export interface Change {
  entity: IngestEntity;
  op: IngestOp;
  /** The entity's id; a consent's is `{crew_unique_id, partner_id}`. */
  id: string | ConsentId;
  /** Monotonic per entity at the source: a change not newer than the stored version is stale. */
  version: number;
  data?: Record<string, unknown>;
}

/** The id a change's entity is stored under: a consent's two ids joined by `|`. */
export function entityKey(id: string | ConsentId): string {
  return typeof id === 'string' ? id : `${id.crew_unique_id}|${id.partner_id}`;
}

/** A problem with one change, shaped like the API's validation issues (docs/decisions.md §1). */
export interface ChangeIssue {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input?: unknown;
}

/** What ingesting one change did, reported per change in the order received. */
export interface ChangeResult {
  /** Where the change came from: `file:line`, `request:line`, `amqp:<message id>`. */
  origin: string;
  entity?: IngestEntity;
  id?: string;
  outcome: IngestOutcome;
  /** Why it was held or rejected. */
  reason?: string;
  issues?: ChangeIssue[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * JSON Merge Patch (RFC 7396): members of `patch` replace those of `target`, `null` removes one,
 * objects merge recursively; anything but an object replaces the target whole.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}
