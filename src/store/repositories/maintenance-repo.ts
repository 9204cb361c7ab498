import { sql } from 'kysely';
import type { Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';

/**
 * Refreshes the planner's statistics. After a bulk load the planners otherwise guess: Postgres
 * picked a 60 ms plan for the fleet page on 10,000 fresh crew rows instead of a 3 ms one.
 */
export async function analyzeStore(db: Db): Promise<void> {
  await sql`analyze`.execute(db);
}

/** The same for a few tables a job has just rewritten (sync's snapshots and change log after a full run). */
export async function analyzeTables(db: Db, tables: readonly ('sync_snapshots' | 'changes')[]): Promise<void> {
  for (const t of tables) await sql`analyze ${sql.table(t)}`.execute(db);
}

/**
 * After a full sync run emptied the change log: on Postgres, vacuums it (with fresh statistics).
 * A bulk load leaves millions of deleted change rows behind, and the planner, told by analyze that
 * the table is empty, reads the newest change (src/store/repositories/data-version-repo.ts, read
 * as each delivery starts) with a bitmap scan over every dead index entry, which never marks them
 * dead: 1.4 to 2 s a read at 100,000 crew (2.1 million dead entries) against 0.2 ms after a vacuum
 * (bench/results/sync-bursts-at-scale.md). Autovacuum does the same within a minute or so; the
 * run's own delivery, and the next run, do not wait for it. Not in a transaction (VACUUM cannot be).
 */
export async function vacuumChangeLog(db: Db): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`vacuum (analyze) changes`.execute(db);
  else await analyzeTables(db, ['changes']);
}
