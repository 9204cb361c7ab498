import { sql } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Refreshes the planner's statistics. After a bulk load the planners otherwise guess: Postgres
 * picked a 60 ms plan for the fleet page on 10,000 fresh crew rows instead of a 3 ms one.
 */
export async function analyzeStore(db: Db): Promise<void> {
  await sql`analyze`.execute(db);
}
