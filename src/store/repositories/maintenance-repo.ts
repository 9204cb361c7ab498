import { sql } from 'kysely';
import type { Db } from '../database.ts';

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
