import type { Db } from '../database.ts';

/**
 * Counts `n` hits in a bucket's window (table rate_limits) and returns the window's count including it. One upsert
 * statement, so concurrent processes never lose a hit.
 */
export async function countHit(db: Db, bucket: string, windowStart: string, hits = 1): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({ bucket, window_start: windowStart, hits: hits })
    .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet((eb) => ({ hits: eb('rate_limits.hits', '+', hits) })))
    .returning('hits')
    .executeTakeFirstOrThrow();
  return Number(row.hits);
}

/** Drops windows that started before `windowStart`; they can no longer limit anything. */
export async function deleteWindowsBefore(db: Db, windowStart: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', windowStart).execute();
}
