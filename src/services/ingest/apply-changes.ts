import type { Clock } from '../../domain/clock.ts';
import { entityKey, type Change, type ChangeIssue, type ChangeResult, type IngestEntity } from '../../domain/ingest-change.ts';
import type { Selectable, Transaction } from 'kysely';
import type { CrewTable, Database, Db } from '../../store/database.ts';
import { existingIds } from '../../store/repositories/ids-repo.ts';
import { deleteUnusedFiles } from '../../store/repositories/files-repo.ts';
import { findCrewRows } from '../../store/repositories/reference-data-repo.ts';
import {
  dropHeld,
  findVersions,
  holdChanges,
  lockEntities,
  refKey,
  saveVersions,
  type HeldChange,
  type StoredVersion,
  type VersionWrite,
} from '../../store/repositories/ingest-repo.ts';
import { storeFile } from '../files/stored-files.ts';
import { deleteEntity } from './delete-entity.ts';
import { ENTITY_KINDS, unknownReference, type Reference } from './entities.ts';
import type { FileSource } from './file-source.ts';
import { echoed, madeRecord, prepareChange, type Incoming, type MadeRecord, type PreparedChange } from './read-incoming.ts';
import { WRITE_ORDER, writeRecords } from './write-records.ts';

export type { Incoming, PreparedChange } from './read-incoming.ts';

/** What ingestion takes from outside. */
export interface IngestDeps {
  clock: Clock;
  /** How long a change that refers to an entity not known yet waits for it before it is rejected. */
  holdMs: number;
  /** Where `file` and `photo` paths are read from; none: a change naming one is rejected. */
  files?: FileSource;
  /** Reject, instead of holding, a change that refers to an entity not known (a fixture load). */
  noHolding?: boolean;
}

const TABLE_OF = {
  employer: 'employers',
  partner: 'partners',
  vessel: 'vessels',
  crew: 'crew',
  document: 'documents',
  file: 'files',
} as const;
type Referable = keyof typeof TABLE_OF;

const FILE_FIELDS: Partial<Record<IngestEntity, readonly [string, string]>> = {
  document: ['file', 'file_sha256'],
  crew: ['photo', 'photo_sha256'],
};

/**
 * Resolves a record's file path into a stored file: read and hashed, checked against a stated
 * SHA-256, then stored chunk by chunk in the batch's transaction unless the store or the batch
 * (`stored`) holds it already, as stored at `at`; a file it stores is added to `created`.
 */
async function resolveFiles(
  trx: Db,
  at: string,
  record: Record<string, unknown>,
  entity: IngestEntity,
  files: FileSource | undefined,
  stored: Set<string>,
  created: string[],
): Promise<ChangeIssue[]> {
  const fields = FILE_FIELDS[entity];
  if (!fields || typeof record[fields[0]] !== 'string') return [];
  const [pathField, shaField] = fields;
  const path = record[pathField] as string;
  if (!files)
    return [
      {
        type: 'value_error',
        loc: ['data', pathField],
        msg: 'a file path needs a folder to read it from (svc ingest --files DIR); send file_sha256 of an uploaded file instead',
      },
    ];
  const file = await files.read(path);
  if ('problem' in file) return [{ type: 'value_error', loc: ['data', pathField], msg: file.problem, input: path }];
  try {
    if (record[shaField] && record[shaField] !== file.fileId) {
      return [
        { type: 'value_error', loc: ['data', shaField], msg: `the file ${path} has SHA-256 ${file.fileId}`, input: record[shaField] },
      ];
    }
    if (!stored.has(file.fileId) && !(await existingIds(trx, 'files', [file.fileId])).has(file.fileId)) {
      const written = await storeFile(trx, file.fileId, file.contentType, file.chunks(), at);
      if (written.outcome === 'mismatch')
        return [{ type: 'value_error', loc: ['data', pathField], msg: `${path} changed while it was read`, input: path }];
      if (written.outcome === 'created') created.push(file.fileId);
    }
  } finally {
    await file.close();
  }
  stored.add(file.fileId);
  record[shaField] = file.fileId;
  if (entity === 'document') record.file_name ??= path.split('/').pop();
  delete record[pathField];
  return [];
}

/**
 * Applies changes in one transaction, in the order given (docs/ingest.md): each is checked,
 * compared with the stored version (not newer: `stale`), turned into its full record (a patch is
 * merged into the stored one), validated, and written with its version; a change referring to an
 * entity not known yet is `held` (kept in the store, retried by later batches until its deadline,
 * then `rejected`); a bad change is `rejected` with its issues and writes nothing. Returns one
 * result per change. Throws only on a store error; the caller's transaction then writes nothing.
 */
export async function applyChanges(trx: Transaction<Database>, incoming: readonly Incoming[], deps: IngestDeps): Promise<ChangeResult[]> {
  return applyPrepared(trx, incoming.map(prepareChange), deps);
}

/** applyChanges, of changes read (and upserts' records made) beforehand: prepareChange. */
export async function applyPrepared(
  trx: Transaction<Database>,
  prepared: readonly PreparedChange[],
  deps: IngestDeps,
): Promise<ChangeResult[]> {
  const at = deps.clock().toISOString();
  const results = new Array<ChangeResult>(prepared.length);
  const parsed: Array<{ index: number; item: Incoming; change: Change; made?: MadeRecord }> = [];
  prepared.forEach(({ item, read, made }, index) => {
    if ('result' in read) results[index] = read.result;
    else parsed.push({ index, item, change: read.change, made });
  });
  const batch = new IngestBatch(trx, deps, at);
  await batch.loadVersions(parsed.map((p) => p.change));
  await batch.loadReferences(parsed);
  for (const { index, item, change, made } of parsed) results[index] = await batch.apply(item, change, made);
  await batch.flush();
  // Files stored for changes that were rejected or held: gone again, unless an applied change uses them (docs/ingest.md, "Files").
  await deleteUnusedFiles(trx, batch.unwrittenFiles);
  await saveVersions(trx, [...batch.versions.values()], at);
  await holdChanges(trx, batch.held);
  await dropHeld(trx, batch.settledHeld);
  return results;
}

/** The state of one batch: versions as the batch leaves them, records waiting to be written, what is held. */
class IngestBatch {
  readonly versions = new Map<string, VersionWrite>();
  readonly held: HeldChange[] = [];
  readonly settledHeld: Array<{ entity: string; entityId: string; version: number }> = [];
  /** Files this batch stored for a change that was then rejected or held. */
  readonly unwrittenFiles: string[] = [];
  private stored = new Map<string, StoredVersion>();
  private pending = new Map<IngestEntity, Map<string, Record<string, unknown>>>();
  /** Files stored or found by this batch. */
  private files = new Set<string>();
  private known = new Map<string, boolean>();
  /** Whether the store held each entity the batch's records refer to, read once per kind before the first change; a delete drops it. */
  private inStore = new Map<string, boolean>();
  /** The stored crew rows of `ids` (absent: not stored) as loadReferences read them; dropped once the batch writes. */
  private crewRead?: { ids: ReadonlySet<string>; rows: ReadonlyMap<string, Selectable<CrewTable>> };

  constructor(
    private trx: Db,
    private deps: IngestDeps,
    private at: string,
  ) {}

  async loadVersions(changes: readonly Change[]): Promise<void> {
    const refs = changes.map((c) => ({ entity: c.entity, entityId: entityKey(c.id) }));
    await lockEntities(this.trx, refs);
    this.stored = await findVersions(this.trx, refs, new Set(changes.filter((c) => c.op === 'patch').map((c) => c.entity)));
  }

  /**
   * Reads, one query per entity kind, which of the entities the batch's upserts and patches refer
   * to the store holds (a patch's record as the stored one with the patch over it). Files are left
   * to unknownReferences: the batch stores them as it reads them. Crew are read as whole rows, of
   * the crew members referred to and of those the batch writes: the same rows give the writer
   * of crew the stored times it keeps (upsertCrewKeepingTimes), until the batch first writes.
   */
  async loadReferences(parsed: ReadonlyArray<{ change: Change; made?: MadeRecord }>): Promise<void> {
    const ids = new Map<Exclude<Referable, 'file'>, Set<string>>();
    const add = (kind: Exclude<Referable, 'file'>, id: string) => ids.set(kind, (ids.get(kind) ?? new Set<string>()).add(id));
    for (const { change, made } of parsed) {
      if (change.op === 'delete') continue;
      if (change.entity === 'crew') add('crew', entityKey(change.id));
      const stored = this.stored.get(refKey(change.entity, entityKey(change.id)))?.record;
      const record = made && 'record' in made ? made.record : { ...(stored ?? {}), ...(change.data ?? {}) };
      for (const r of ENTITY_KINDS[change.entity].references(record)) {
        if (r.entity in TABLE_OF) add(r.entity as Exclude<Referable, 'file'>, r.id);
      }
    }
    for (const [kind, set] of ids) {
      let found: ReadonlySet<string>;
      if (kind === 'crew') {
        const rows = await findCrewRows(this.trx, [...set]);
        this.crewRead = { ids: set, rows };
        found = new Set(rows.keys());
      } else found = await existingIds(this.trx, TABLE_OF[kind], [...set]);
      for (const id of set) this.inStore.set(refKey(kind, id), found.has(id));
    }
  }

  /** Applies one change; an upsert's record may come made already (`ready`: prepareChange). */
  async apply(item: Incoming, change: Change, ready?: MadeRecord): Promise<ChangeResult> {
    const id = entityKey(change.id);
    const key = refKey(change.entity, id);
    const created: string[] = [];
    const result = (outcome: ChangeResult['outcome'], reason?: string, issues?: ChangeIssue[]): ChangeResult => {
      if (item.held && outcome !== 'held') this.settledHeld.push({ entity: change.entity, entityId: id, version: change.version });
      if (outcome !== 'applied') this.unwrittenFiles.push(...created);
      return {
        origin: item.origin,
        entity: change.entity,
        id,
        outcome,
        ...(reason ? { reason } : {}),
        ...(issues ? { issues: echoed(issues) } : {}),
      };
    };
    const stored = this.stored.get(key);
    if (stored && stored.version >= change.version)
      return result('stale', `version ${change.version} is not newer than the stored ${stored.version}`);
    if (change.op === 'delete') {
      await this.flush();
      this.inStore.clear();
      const deleted = await deleteEntity(this.trx, change, this.at);
      if ('refused' in deleted) return result('rejected', deleted.refused);
      this.settle(change, key, null);
      for (const gone of deleted.gone) this.forget(gone.entity, gone.entityId);
      if (change.entity === 'crew') this.held.splice(0, this.held.length, ...this.held.filter((h) => h.crewUniqueId !== id));
      return result('applied');
    }
    const made = ready ?? madeRecord(change, stored);
    if ('hold' in made) return this.hold(item, change, made.hold, result);
    if ('reject' in made) return result('rejected', made.reject, made.issues);
    const record = made.record;
    const problems = [
      ...made.problems,
      ...(await resolveFiles(this.trx, this.at, record, change.entity, item.files ?? this.deps.files, this.files, created)),
    ];
    if (problems.length > 0) return result('rejected', 'the record is not valid', problems);
    const sha = FILE_FIELDS[change.entity] && record[FILE_FIELDS[change.entity]![1]];
    const fileRefs: Reference[] =
      typeof sha === 'string' && !this.files.has(sha)
        ? [{ entity: 'file' as IngestEntity, id: sha, field: FILE_FIELDS[change.entity]![1] }]
        : [];
    const missing = await this.unknownReferences([...ENTITY_KINDS[change.entity].references(record), ...fileRefs]);
    if (missing.length > 0) {
      const reason = missing.map((m) => `unknown ${m.entity} "${m.id}" (${m.field})`).join('; ');
      const issues = missing.map((m): ChangeIssue => ({
        type: 'value_error',
        loc: ['data', ...m.field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))],
        msg: unknownReference(m),
        input: m.id,
      }));
      return this.deps.noHolding ? result('rejected', reason, issues) : this.hold(item, change, reason, result);
    }
    const byId = this.pending.get(change.entity) ?? new Map<string, Record<string, unknown>>();
    byId.set(id, record);
    this.pending.set(change.entity, byId);
    this.settle(change, key, record);
    return result('applied');
  }

  private settle(change: Change, key: string, record: Record<string, unknown> | null): void {
    const entityId = entityKey(change.id);
    this.stored.set(key, { version: change.version, record, deleted: record === null });
    this.versions.set(key, { entity: change.entity, entityId, version: change.version, record });
    if (change.entity in TABLE_OF) this.known.set(refKey(change.entity, entityId), record !== null);
    if (record === null) this.pending.get(change.entity)?.delete(entityId);
  }

  /** An entity a delete took with it: its record is gone from the batch too (its stored version stays, as a tombstone). */
  private forget(entity: string, entityId: string): void {
    const key = refKey(entity, entityId);
    const stored = this.stored.get(key);
    if (stored) this.stored.set(key, { ...stored, record: null, deleted: true });
    const version = this.versions.get(key);
    if (version) this.versions.set(key, { ...version, record: null });
    this.pending.get(entity as IngestEntity)?.delete(entityId);
    if (entity in TABLE_OF) this.known.set(key, false);
  }

  private hold(
    item: Incoming,
    change: Change,
    reason: string,
    result: (o: ChangeResult['outcome'], r?: string) => ChangeResult,
  ): ChangeResult {
    const heldAt = item.held?.heldAt ?? this.at;
    const heldUntil = item.held?.heldUntil ?? new Date(Date.parse(this.at) + this.deps.holdMs).toISOString();
    if (heldUntil <= this.at) return result('rejected', `${reason}; held since ${heldAt}, gave up at ${heldUntil}`);
    const data = change.data ?? {};
    const crew =
      change.entity === 'crew'
        ? entityKey(change.id)
        : typeof data.crew_unique_id === 'string'
          ? data.crew_unique_id
          : typeof change.id === 'object'
            ? change.id.crew_unique_id
            : null;
    this.held.push({
      entity: change.entity,
      entityId: entityKey(change.id),
      version: change.version,
      change: item.text,
      origin: item.origin,
      reason,
      crewUniqueId: crew,
      heldAt,
      heldUntil,
    });
    return result('held', reason);
  }

  /** The references no entity in the store or earlier in the batch satisfies. */
  private async unknownReferences(refs: readonly Reference[]): Promise<Reference[]> {
    const missing: Reference[] = [];
    for (const r of refs) {
      const key = refKey(r.entity, r.id);
      let known = this.known.get(key);
      if (known === undefined) known = this.inStore.get(key);
      if (known === undefined) {
        known = (await existingIds(this.trx, TABLE_OF[r.entity as Referable], [r.id])).has(r.id);
        this.known.set(key, known);
      }
      if (!known) missing.push(r);
    }
    return missing;
  }

  /** Writes the records waiting, parents first (their files are stored as they are read); a delete may follow, which may take files with it. */
  async flush(): Promise<void> {
    this.files.clear();
    const read = this.crewRead;
    this.crewRead = undefined;
    for (const entity of WRITE_ORDER) {
      const records = this.pending.get(entity);
      if (!records || records.size === 0) continue;
      const crewRows = entity === 'crew' && read && [...records.keys()].every((id) => read.ids.has(id)) ? read.rows : undefined;
      await writeRecords(this.trx, entity, [...records.values()], this.at, crewRows);
    }
    this.pending.clear();
  }
}
