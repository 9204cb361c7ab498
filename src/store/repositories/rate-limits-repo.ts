import type { Db } from '../database.ts';

/** The counter table of migration 0100 (kept out of database.ts, which the foundation owns). */
export interface RateLimitsTable {
  bucket: string;
  /** ISO-8601 UTC start of the fixed window. */
  window_start: string;
  hits: number;
}

function withCounters(db: Db) {
  return db.withTables<{ rate_limits: RateLimitsTable }>();
}

/**
 * Counts `n` hits in a bucket's window and returns the window's count including it. One upsert
 * statement, so concurrent processes never lose a hit.
 */
export async function countHit(db: Db, bucket: string, windowStart: string, n = 1): Promise<number> {
  const row = await withCounters(db).insertInto('rate_limits')
    .values({ bucket, window_start: windowStart, hits: n })
    .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet((eb) => ({ hits: eb('rate_limits.hits', '+', n) })))
    .returning('hits')
    .executeTakeFirstOrThrow();
  return Number(row.hits);
}

/** Drops windows that started before `windowStart`; they can no longer limit anything. */
export async function deleteWindowsBefore(db: Db, windowStart: string): Promise<void> {
  await withCounters(db).deleteFrom('rate_limits').where('window_start', '<', windowStart).execute();
}
