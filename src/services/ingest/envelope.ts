import type { Struct, StructError } from 'superstruct';
import { TEXT_LIMITS } from '../../domain/field-structs.ts';
import {
  INGEST_ENTITIES,
  INGEST_OPS,
  type Change,
  type ChangeIssue,
  type IngestEntity,
  type IngestOp,
} from '../../domain/ingest-change.ts';
import { validateJson } from '../../domain/validate-json.ts';

const ID = new RegExp(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,${TEXT_LIMITS.id - 1}}$`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENVELOPE_KEYS = new Set(['entity', 'op', 'id', 'version', 'data']);

function issue(loc: Array<string | number>, type: string, msg: string, input?: unknown): ChangeIssue {
  return { type, loc, msg, ...(input !== undefined ? { input } : {}) };
}

function idIssues(entity: IngestEntity, id: unknown): ChangeIssue[] {
  const good = (v: unknown) => typeof v === 'string' && ID.test(v);
  if (entity === 'consent') {
    if (!isObject(id)) return [issue(['id'], 'model_attributes_type', 'a consent\'s id is {"crew_unique_id": …, "partner_id": …}', id)];
    const extra = Object.keys(id).filter((k) => k !== 'crew_unique_id' && k !== 'partner_id');
    return [
      ...['crew_unique_id', 'partner_id']
        .filter((k) => !good(id[k]))
        .map((k) => issue(['id', k], 'string_pattern_mismatch', 'not a valid id', id[k])),
      ...extra.map((k) => issue(['id', k], 'extra_forbidden', 'Extra inputs are not permitted', id[k])),
    ];
  }
  return good(id)
    ? []
    : [issue(['id'], 'string_pattern_mismatch', `not a valid id (letters, digits and _.:-, at most ${TEXT_LIMITS.id})`, id)];
}

/**
 * Checks one change's envelope (docs/ingest.md, "The change format"): a known entity and
 * operation, an id of the entity's shape, a whole version from 0 to 2^53 - 1, `data` an object for
 * `upsert` and `patch` and absent for `delete`, no other keys. The record in `data` is checked later,
 * against the entity's record.
 */
export function readChange(value: unknown): { change: Change } | { issues: ChangeIssue[] } {
  if (!isObject(value)) return { issues: [issue([], 'model_attributes_type', 'a change is a JSON object', value)] };
  const issues: ChangeIssue[] = [];
  for (const key of Object.keys(value))
    if (!ENVELOPE_KEYS.has(key)) issues.push(issue([key], 'extra_forbidden', 'Extra inputs are not permitted', value[key]));
  const { entity, op, id, version, data } = value;
  if (!INGEST_ENTITIES.includes(entity as IngestEntity)) {
    issues.push(issue(['entity'], 'literal_error', `Input should be ${INGEST_ENTITIES.map((e) => `'${e}'`).join(', ')}`, entity));
  }
  if (!INGEST_OPS.includes(op as IngestOp))
    issues.push(issue(['op'], 'literal_error', "Input should be 'upsert', 'patch' or 'delete'", op));
  if (!Number.isSafeInteger(version) || (version as number) < 0) {
    issues.push(issue(['version'], 'int_type', 'Input should be a whole number from 0 to 9007199254740991', version));
  }
  if (INGEST_ENTITIES.includes(entity as IngestEntity)) issues.push(...idIssues(entity as IngestEntity, id));
  if (op === 'delete' && data !== undefined) issues.push(issue(['data'], 'extra_forbidden', 'a delete carries no data', data));
  if ((op === 'upsert' || op === 'patch') && !isObject(data)) {
    issues.push(
      data === undefined
        ? issue(['data'], 'missing', 'Field required')
        : issue(['data'], 'model_attributes_type', 'data is a JSON object', data),
    );
  }
  if (issues.length > 0) return { issues };
  return { change: value as unknown as Change };
}

/** A superstruct failure of a record, as change issues under `data`. */
export function recordIssues(error: StructError): ChangeIssue[] {
  // superstruct types a failure's path any[]: the keys and indices that lead to the value.
  const path = (f: { path: unknown[] }) => f.path as (string | number)[];
  return error
    .failures()
    .map((f) => issue(['data', ...path(f)], f.value === undefined && f.type !== 'never' ? 'missing' : 'value_error', f.message, f.value));
}

/** A record as its entity's struct coerced it, or the issues that make it invalid. */
export type CheckedRecord = { record: Record<string, unknown> } | { issues: ChangeIssue[] };

/** Validates a record against a struct (no coercion: a valid record is returned as it is), or its issues. */
export function checkRecord<T extends object, S>(struct: Struct<T, S>, record: unknown): CheckedRecord {
  const [error, value] = validateJson(record, struct);
  return error ? { issues: recordIssues(error) } : { record: value as Record<string, unknown> };
}
