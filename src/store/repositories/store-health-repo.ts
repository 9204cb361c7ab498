import { sql } from 'kysely';
import type { Db } from '../database.ts';

/** A round trip to the store; rejects when it does not answer. */
export async function pingStore(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
