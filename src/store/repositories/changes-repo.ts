import { sql } from 'kysely';
import type { Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';

/** Where a reader of `changes` stands: everything at or before (tx, seq) is read. */
export interface ChangePosition {
  tx: number;
  seq: number;
}

/** One captured write (migration 0300-change-capture). */
export interface Change extends ChangePosition {
  table: string;
  key: string;
  crewUniqueId: string | null;
  partnerId: string | null;
}

const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The transaction id below which every writer of this database has finished: changes with a
 * smaller `tx` are final (committed and visible, or rolled back), so a reader may move past them.
 * Postgres: the oldest transaction of this database still in flight in the current snapshot
 * (its xid8 matched against pg_stat_activity.backend_xid), else the snapshot's xmax; when the
 * role cannot see other sessions' transaction ids, pg_snapshot_xmin, which counts every database
 * of the server (never skips, may wait longer). SQLite serializes writers, so nothing in flight
 * can hold an earlier `seq`: no bound. Call it outside a transaction: rows must be read after it.
 */
export async function changeHorizon(db: Db): Promise<number> {
  if (dialectOf(db) !== 'postgres') return NO_LIMIT;
  const { rows } = await sql<{ horizon: string }>`
    select (case when (select rolsuper or pg_has_role(current_user, 'pg_read_all_stats', 'member') from pg_roles where rolname = current_user)
      then coalesce(
        (select min(x) from pg_snapshot_xip(pg_current_snapshot()) as x
          where x::xid in (select backend_xid from pg_stat_activity where datname = current_database() and backend_xid is not null)),
        pg_snapshot_xmax(pg_current_snapshot()))
      else pg_snapshot_xmin(pg_current_snapshot()) end)::text as horizon`.execute(db);
  return Number(rows[0]!.horizon);
}

// Row values, so both planners range-scan the (tx, seq) index instead of filtering every row.
function after(db: Db, from: ChangePosition | null, horizon: number) {
  let q = db.selectFrom('changes').where('tx', '<', horizon);
  if (from) q = q.where(sql<boolean>`(tx, seq) > (${from.tx}, ${from.seq})`);
  return q;
}

/** The next changes after `from` that are final below `horizon`, in (tx, seq) order. */
export async function readChanges(db: Db, from: ChangePosition | null, horizon: number, limit: number): Promise<Change[]> {
  const rows = await after(db, from, horizon).selectAll().orderBy('tx').orderBy('seq').limit(limit).execute();
  return rows.map((r) => ({
    tx: Number(r.tx), seq: Number(r.seq), table: r.table_name, key: r.row_key, crewUniqueId: r.crew_unique_id, partnerId: r.partner_id,
  }));
}

/** The last final change below `horizon` (where a full run leaves the reader), or null. */
export async function lastChange(db: Db, horizon: number): Promise<ChangePosition | null> {
  const row = await db.selectFrom('changes').select(['tx', 'seq']).where('tx', '<', horizon)
    .orderBy('tx', 'desc').orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row ? { tx: Number(row.tx), seq: Number(row.seq) } : null;
}

/** Partner-wide and store-wide changes after `from`: tables whose writes fan out to whole fleets. */
export async function fleetWideChanges(db: Db, from: ChangePosition | null, horizon: number, tables: readonly string[]) {
  return after(db, from, horizon).select(['table_name', 'partner_id']).distinct().where('table_name', 'in', tables).execute();
}

/** Forgets changes at or before `upTo`: the sync run was their only reader. */
export async function pruneChanges(db: Db, upTo: ChangePosition): Promise<void> {
  await db.deleteFrom('changes').where(sql<boolean>`(tx, seq) <= (${upTo.tx}, ${upTo.seq})`).execute();
}
