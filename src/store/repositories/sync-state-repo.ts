import type { CrewSnapshot } from '../../domain/event-catalogue.ts';
import { sql } from 'kysely';
import type { Db } from '../database.ts';
import type { ChangePosition } from '../../domain/changes.ts';
import { inIdSet } from './id-set.ts';
import { upsertRows } from './upsert.ts';

/** A stored snapshot: the digests (one per subject of the event catalogue), the date from which time alone may change them (null: never), and when it was written. */
export interface StoredSnapshot {
  state: CrewSnapshot;
  nextDue: string | null;
  /** ISO instant of the run that wrote it: its digests are of the payloads on that date. */
  updatedAt: string;
}

/**
 * Snapshots of several crew members for several partners: key `partner|crew`. Each set is bound as
 * one parameter (inIdSet, src/store/repositories/id-set.ts), the crew 2,000 at a time.
 */
export async function readSnapshots(
  db: Db,
  partnerIds: readonly string[],
  crewIds: readonly string[],
): Promise<Map<string, StoredSnapshot>> {
  const out = new Map<string, StoredSnapshot>();
  if (partnerIds.length === 0) return out;
  for (let i = 0; i < crewIds.length; i += 2000) {
    const rows = await db
      .selectFrom('sync_snapshots')
      .select(['partner_id', 'crew_unique_id', 'state', 'next_due', 'updated_at'])
      .where(inIdSet(db, 'partner_id', partnerIds))
      .where(inIdSet(db, 'crew_unique_id', crewIds.slice(i, i + 2000)))
      .execute();
    for (const r of rows)
      out.set(`${r.partner_id}|${r.crew_unique_id}`, {
        state: JSON.parse(r.state) as CrewSnapshot,
        nextDue: r.next_due,
        updatedAt: r.updated_at,
      });
  }
  return out;
}

export interface SnapshotWrite {
  partnerId: string;
  crewUniqueId: string;
  state: CrewSnapshot;
  nextDue: string | null;
}

export async function writeSnapshots(db: Db, writes: readonly SnapshotWrite[], at: string): Promise<void> {
  await upsertRows(
    db,
    'sync_snapshots',
    writes.map((snapshot) => ({
      partner_id: snapshot.partnerId,
      crew_unique_id: snapshot.crewUniqueId,
      state: JSON.stringify(snapshot.state),
      updated_at: at,
      next_due: snapshot.nextDue,
    })),
    ['partner_id', 'crew_unique_id'],
  );
}

export async function deleteSnapshots(db: Db, partnerId: string, crewIds: readonly string[]): Promise<void> {
  for (let i = 0; i < crewIds.length; i += 2000) {
    await db
      .deleteFrom('sync_snapshots')
      .where('partner_id', '=', partnerId)
      .where('crew_unique_id', 'in', crewIds.slice(i, i + 2000))
      .execute();
  }
}

/**
 * Forgets the partners' snapshots of the crew with an id after `after` and up to `upTo` (null: no
 * bound) but not in `keep`, in one statement (each set bound as one parameter, inIdSet): a full
 * pass walks crew in id order and calls this for the range of each page it writes, keeping the
 * page's crew (src/sync/diff/passes.ts, fullPass).
 */
export async function deleteSnapshotsInRange(
  db: Db,
  partnerIds: readonly string[],
  range: { after: string | null; upTo: string | null },
  keep: readonly string[],
): Promise<void> {
  if (partnerIds.length === 0) return;
  let query = db.deleteFrom('sync_snapshots').where(inIdSet(db, 'partner_id', partnerIds));
  if (range.after !== null) query = query.where('crew_unique_id', '>', range.after);
  if (range.upTo !== null) query = query.where('crew_unique_id', '<=', range.upTo);
  if (keep.length > 0) query = query.where(sql<boolean>`not ${inIdSet(db, 'crew_unique_id', keep)}`);
  await query.execute();
}

/** Where a walk of due snapshots stands: the last row read, in due-date order. */
export interface DuePosition {
  nextDue: string;
  crewUniqueId: string;
}

/**
 * A page of the snapshots of the partners whose next time-driven change is due by `today`, after
 * `after`, in (due date, crew id) order: the order of the due-date index, so each page reads its
 * own rows and no more, however many are due (a page in crew-id order re-read and sorted every due
 * row before it). A crew member due for several partners comes once per partner; the caller keeps
 * the first.
 */
export async function dueSnapshotPage(
  db: Db,
  partnerIds: readonly string[],
  today: string,
  after: DuePosition | null,
  limit: number,
): Promise<DuePosition[]> {
  if (partnerIds.length === 0) return [];
  let query = db
    .selectFrom('sync_snapshots')
    .select(['next_due', 'crew_unique_id'])
    .where('next_due', '<=', today)
    .where(inIdSet(db, 'partner_id', partnerIds));
  // A row value: both stores seek the index to it (an `or` of the two columns made Postgres scan from the start).
  if (after) query = query.where((eb) => eb(eb.refTuple('next_due', 'crew_unique_id'), '>', eb.tuple(after.nextDue, after.crewUniqueId)));
  const rows = await query.orderBy('next_due').orderBy('crew_unique_id').limit(limit).execute();
  return rows.map((r) => ({ nextDue: r.next_due!, crewUniqueId: r.crew_unique_id }));
}

/** How many crew members have a snapshot of one of the partners due by `today` (each once). */
export async function countDueCrew(db: Db, partnerIds: readonly string[], today: string): Promise<number> {
  if (partnerIds.length === 0) return 0;
  const row = await db
    .selectFrom('sync_snapshots')
    .select((eb) => eb.fn.count<number | string>('crew_unique_id').distinct().as('n'))
    .where('next_due', '<=', today)
    .where(inIdSet(db, 'partner_id', partnerIds))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Where incremental sync stands: the last change it read, and the settings its snapshots' due dates assume. */
export interface SyncCursor {
  position: ChangePosition | null;
  windowDays: number;
  today: string;
}

const CURSOR = 'sync.cursor';

/** Undefined until a full run has completed: the next run is a full one. */
export async function findSyncCursor(db: Db): Promise<SyncCursor | undefined> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', CURSOR).executeTakeFirst();
  return row && (JSON.parse(row.value) as SyncCursor);
}

export async function saveSyncCursor(db: Db, cursor: SyncCursor): Promise<void> {
  await upsertRows(db, 'settings', [{ name: CURSOR, value: JSON.stringify(cursor) }], ['name']);
}

/** When the partner's baseline was recorded; undefined: the next run records it (no backlog). */
export async function findSyncState(db: Db, partnerId: string): Promise<{ baselineAt: string; lastRunAt: string } | undefined> {
  const row = await db.selectFrom('sync_state').selectAll().where('partner_id', '=', partnerId).executeTakeFirst();
  return row && { baselineAt: row.baseline_at, lastRunAt: row.last_run_at };
}

export async function recordSyncRun(db: Db, partnerId: string, at: string, baseline: boolean): Promise<void> {
  if (baseline) {
    await upsertRows(db, 'sync_state', [{ partner_id: partnerId, baseline_at: at, last_run_at: at }], ['partner_id']);
  } else {
    await db.updateTable('sync_state').set({ last_run_at: at }).where('partner_id', '=', partnerId).execute();
  }
}
