import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Selectable } from 'kysely';
import type { Change, ChangePosition, FleetWideChange } from '../../domain/changes.ts';
import type { ChangesTable, Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';

export const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * Postgres: the transaction id below which every writer of this database had finished in the
 * statement's snapshot: the oldest transaction in flight in it (pg_snapshot_xip) that is not known
 * to belong to another database, else the snapshot's xmax. A transaction that ends while the
 * statement runs is no longer in pg_stat_activity, so it still counts as in flight: the bound errs
 * low (a reader waits a little longer), never high. Other databases' transactions are excluded only
 * when the role may see them (superuser, pg_read_all_stats; else their backend_xid reads as null);
 * then the bound is at worst pg_snapshot_xmin, which counts every database of the server. As one
 * expression, so that a statement reading `changes` may compute it from the same snapshot.
 */
export const CHANGE_HORIZON = sql<string>`(coalesce(
  (select min(x) from pg_snapshot_xip(pg_current_snapshot()) as x
    where not exists (select 1 from pg_stat_activity a where a.backend_xid = x::xid and a.datname <> current_database())),
  pg_snapshot_xmax(pg_current_snapshot())))::text`;

/**
 * The transaction id below which every writer of this database has finished: changes with a
 * smaller `tx` are final (committed and visible, or rolled back), so a reader may move past them
 * (Postgres: CHANGE_HORIZON). SQLite serializes writers, so nothing in flight can hold an earlier
 * `seq`: no bound. Call it outside a transaction: rows must be read after it.
 */
export async function changeHorizon(db: Db): Promise<number> {
  if (dialectOf(db) !== 'postgres') return NO_LIMIT;
  const { rows } = await sql<{ horizon: string }>`select ${CHANGE_HORIZON} as horizon`.execute(db);
  return Number(rows[0]!.horizon);
}

/** How far a run may read `changes`: below `horizon`, and up to `last` (null: nothing to read). */
export interface ReadBound {
  horizon: number;
  last: ChangePosition | null;
}

/**
 * Where a run may read up to, once every change committed before the call is final. While a
 * transaction older than the newest committed change is still in flight, the horizon holds that
 * change (and any committed after the older one began) back, so a run would report it only next
 * time: this polls until the horizon passes it, or `maxWaitMs` of real time have gone, and then
 * bounds the run by what is final, which never skips a change either way. The newest change is
 * read in the horizon's own statement, so the common case costs one backward index scan (after a
 * large prune, the index's dead entries make each such scan cost). SQLite: no horizon.
 */
export async function settledReadBound(db: Db, maxWaitMs: number, pollMs = 25): Promise<ReadBound> {
  if (dialectOf(db) !== 'postgres') return { horizon: NO_LIMIT, last: await lastChange(db, NO_LIMIT) };
  const { rows } = await sql<{ horizon: string; tx: string | null; seq: string | null }>`
    select h.horizon, c.tx::text as tx, c.seq::text as seq from (select ${CHANGE_HORIZON} as horizon) h
    left join lateral (select tx, seq from changes order by tx desc, seq desc limit 1) c on true`.execute(db);
  const row = rows[0]!;
  const newest = row.tx === null ? null : { tx: Number(row.tx), seq: Number(row.seq) };
  let horizon = Number(row.horizon);
  const deadline = performance.now() + maxWaitMs;
  while (newest !== null && horizon <= newest.tx && performance.now() < deadline) {
    await sleep(pollMs);
    horizon = await changeHorizon(db);
  }
  // Past the newest change, every change up to it is final; else only what the horizon lets through.
  return { horizon, last: newest === null || horizon > newest.tx ? newest : await lastChange(db, horizon) };
}

export function toChange(row: Selectable<ChangesTable>): Change {
  return {
    tx: Number(row.tx),
    seq: Number(row.seq),
    table: row.table_name,
    key: row.row_key,
    crewUniqueId: row.crew_unique_id,
    partnerId: row.partner_id,
  };
}

// Row values, so both planners range-scan the (tx, seq) index instead of filtering every row.
const pastPosition = (position: ChangePosition) => sql<boolean>`(tx, seq) > (${position.tx}, ${position.seq})`;
const upToPosition = (position: ChangePosition) => sql<boolean>`(tx, seq) <= (${position.tx}, ${position.seq})`;

function after(db: Db, from: ChangePosition | null, horizon: number, until?: ChangePosition) {
  let query = db.selectFrom('changes').where('tx', '<', horizon);
  if (from) query = query.where(pastPosition(from));
  if (until) query = query.where(upToPosition(until));
  return query;
}

/** The next changes after `from` that are final below `horizon` (and at or before `until`, when given), in (tx, seq) order. */
export async function readChanges(
  db: Db,
  from: ChangePosition | null,
  horizon: number,
  limit: number,
  until?: ChangePosition,
): Promise<Change[]> {
  const rows = await after(db, from, horizon, until).selectAll().orderBy('tx').orderBy('seq').limit(limit).execute();
  return rows.map(toChange);
}

/**
 * Changes after `from` up to `to`, in (tx, seq) order, at most `limit`. Within one `tx` (always 0
 * on SQLite) the bounds are put on `seq` alone, so SQLite range-scans the index instead of reading
 * every change of that `tx` (its planner uses only the first column of a row-value bound).
 */
export async function changesInRange(db: Db, from: ChangePosition, to: ChangePosition, limit: number): Promise<Change[]> {
  const query =
    from.tx === to.tx
      ? db.selectFrom('changes').where('tx', '=', from.tx).where('seq', '>', from.seq).where('seq', '<=', to.seq)
      : db.selectFrom('changes').where(pastPosition(from)).where(upToPosition(to));
  const rows = await query.selectAll().orderBy('tx').orderBy('seq').limit(limit).execute();
  return rows.map(toChange);
}

/** The last final change below `horizon` (where a full run leaves the reader), or null. */
export async function lastChange(db: Db, horizon: number): Promise<ChangePosition | null> {
  const row = await db
    .selectFrom('changes')
    .select(['tx', 'seq'])
    .where('tx', '<', horizon)
    .orderBy('tx', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { tx: Number(row.tx), seq: Number(row.seq) } : null;
}

/** Partner-wide and store-wide changes after `from`: tables whose writes fan out to whole fleets. */
export async function fleetWideChanges(
  db: Db,
  from: ChangePosition | null,
  horizon: number,
  tables: readonly string[],
): Promise<FleetWideChange[]> {
  const rows = await after(db, from, horizon).select(['table_name', 'partner_id']).distinct().where('table_name', 'in', tables).execute();
  return rows.map((row) => ({ table: row.table_name, partnerId: row.partner_id }));
}

/**
 * Crew members named by changes of these tables (null: of any table) after `from`, whether final
 * or still in flight: those whose rows may differ from what the runs before read.
 */
export async function crewWithChanges(db: Db, from: ChangePosition | null, tables: readonly string[] | null): Promise<Set<string>> {
  let query = db.selectFrom('changes').select('crew_unique_id').distinct().where('crew_unique_id', 'is not', null);
  if (tables) query = query.where('table_name', 'in', tables);
  if (from) query = query.where(pastPosition(from));
  return new Set((await query.execute()).map((r) => r.crew_unique_id!));
}

/** The keys (row ids) of one table's changes after `from`, whether final or still in flight, each once. */
export async function changedKeys(db: Db, from: ChangePosition | null, table: string): Promise<string[]> {
  let query = db.selectFrom('changes').select('row_key').distinct().where('table_name', '=', table);
  if (from) query = query.where(pastPosition(from));
  return (await query.execute()).map((r) => r.row_key);
}

/**
 * Forgets changes at or before `upTo`: the sync run was their only reader. `after`: where the
 * reader stood before (everything up to it is already gone), so the delete range-scans from there
 * instead of walking the index entries of rows deleted earlier that Postgres has not vacuumed yet
 * (after a bulk load, millions of them).
 */
export async function pruneChanges(db: Db, upTo: ChangePosition, after: ChangePosition | null = null): Promise<void> {
  let query = db.deleteFrom('changes').where(upToPosition(upTo));
  if (after) query = query.where(pastPosition(after));
  await query.execute();
}
