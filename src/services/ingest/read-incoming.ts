import { echoInput } from '../../domain/echo-input.ts';
import { jsonShapeClean, jsonShapeProblems, MAX_JSON_DEPTH } from '../../domain/json-shape.ts';
import { entityKey, mergePatch, type Change, type ChangeIssue, type ChangeResult } from '../../domain/ingest-change.ts';
import type { StoredVersion } from '../../store/repositories/ingest-repo.ts';
import { ENTITY_KINDS } from './entities.ts';
import { readChange } from './envelope.ts';
import type { FileSource } from './file-source.ts';

/** One change as received: where it came from, and its JSON text. */
export interface Incoming {
  origin: string;
  text: string;
  /** Set when the change was held before: when it was first held and until when it may wait. */
  held?: { heldAt: string; heldUntil: string };
  /** Set when the change's line is longer than the reader takes (`text` is then empty): it is rejected unread. */
  oversize?: { bytes: number; limit: number };
  /** Where this change's `file` and `photo` paths are read from, instead of `IngestDeps.files` (a fixture file's folder). */
  files?: FileSource;
}

/** A record as an upsert or patch makes it, checked against its entity: the valid record, or why it is not. */
export type MadeRecord =
  { record: Record<string, unknown>; problems: ChangeIssue[] } | { hold: string } | { reject: string; issues?: ChangeIssue[] };

/** A change as read: rejected already (`result`), or its envelope checked. */
export type ReadIncoming = { result: ChangeResult } | { change: Change };

/**
 * A change as far as it goes without the store: read, and for an upsert its record made and
 * checked (an upsert's record does not depend on what is stored; a patch's does, and is made when
 * applied). Applying starts from it, so a stream can prepare one batch while the store writes the
 * one before (ingest-stream.ts).
 */
export interface PreparedChange {
  item: Incoming;
  read: ReadIncoming;
  made?: MadeRecord;
}

/** Reads one change and, for an upsert, makes its record (PreparedChange). */
export function prepareChange(item: Incoming): PreparedChange {
  const read = readIncoming(item);
  return 'change' in read && read.change.op === 'upsert' ? { item, read, made: madeRecord(read.change, undefined) } : { item, read };
}

export const rejected = (origin: string, reason: string, issues?: ChangeIssue[], change?: Change): ChangeResult => ({
  origin,
  ...(change ? { entity: change.entity, id: entityKey(change.id) } : {}),
  outcome: 'rejected',
  reason,
  ...(issues ? { issues: echoed(issues) } : {}),
});

/** Issues whose `input` is cut as the API cuts what it echoes (docs/api.md, "Echoed input"): a report is never as large as the input. */
export const echoed = (issues: ChangeIssue[]): ChangeIssue[] =>
  issues.map((i) => (i.input === undefined ? i : { ...i, input: echoInput(i.input, i.loc[i.loc.length - 1]) }));

/**
 * Parses one change. JSON.parse keeps a `__proto__` key as a plain own key, and the shape check
 * refuses it at its path, as every body of the API refuses it (docs/decisions.md, "Request bodies"):
 * a merge patch must never assign it. No reviver: JSON.parse walks 100,000 nested arrays, a reviver would not.
 */
function parse(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Keys a change may not hold anywhere (parse). */
const REFUSED_KEYS = ['__proto__'];

/** Reads one change (docs/ingest.md, "Bad input"): its JSON, its shape and its envelope. */
export function readIncoming(item: Incoming): ReadIncoming {
  if (item.oversize) {
    const msg = `a change is at most ${item.oversize.limit} bytes; this line has ${item.oversize.bytes}`;
    return { result: rejected(item.origin, 'line too long, not read', [{ type: 'string_too_long', loc: [], msg }]) };
  }
  const json = parse(item.text);
  if ('error' in json) {
    return {
      result: rejected(item.origin, `not valid JSON (${json.error})`, [{ type: 'json_invalid', loc: [], msg: 'JSON decode error' }]),
    };
  }
  const shape = jsonShapeClean(json.value, MAX_JSON_DEPTH, REFUSED_KEYS) ? [] : jsonShapeProblems(json.value, MAX_JSON_DEPTH, REFUSED_KEYS);
  const read = readChange(json.value);
  if (shape.length > 0) {
    const issues = shape.map((p): ChangeIssue => ({ type: 'value_error', loc: p.path, msg: p.message }));
    return { result: rejected(item.origin, 'not a valid change', issues, 'change' in read ? read.change : undefined) };
  }
  if ('issues' in read) return { result: rejected(item.origin, 'not a valid change', read.issues) };
  return { change: read.change };
}

/**
 * The record an upsert or patch results in, with the change's id filled in, checked against its
 * entity's record and rules; or why there is none.
 */
export function madeRecord(change: Change, stored: StoredVersion | undefined): MadeRecord {
  const kind = ENTITY_KINDS[change.entity];
  const idValues: Record<string, string> = typeof change.id === 'string' ? { [kind.idFields[0]!]: change.id } : { ...change.id };
  let base: Record<string, unknown> = {};
  if (change.op === 'patch') {
    if (stored?.deleted) return { reject: `${change.entity} ${entityKey(change.id)} was deleted at version ${stored.version}` };
    if (!stored?.record) return { hold: `no record of ${change.entity} ${entityKey(change.id)} yet: a patch waits for its upsert` };
    base = stored.record;
  }
  const record = (change.op === 'patch' ? mergePatch(base, change.data) : { ...change.data }) as Record<string, unknown>;
  const issues: ChangeIssue[] = [];
  for (const [field, value] of Object.entries(idValues)) {
    if (record[field] === undefined) record[field] = value;
    else if (record[field] !== value)
      issues.push({ type: 'value_error', loc: ['data', field], msg: `does not match the change's id (${value})`, input: record[field] });
  }
  if (issues.length > 0) return { reject: 'the record does not match the change', issues };
  const checked = kind.check(record);
  if ('issues' in checked) return { reject: 'the record is not valid', issues: checked.issues };
  const problems = kind
    .rules(checked.record)
    .map((p): ChangeIssue => ({ type: 'value_error', loc: ['data', ...(p.field ? [p.field] : [])], msg: p.msg }));
  return { record, problems };
}
