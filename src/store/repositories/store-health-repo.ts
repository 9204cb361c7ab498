import type { Db } from '../database.ts';

/**
 * A round trip to the store; rejects when it does not answer. A query builder select: the SQLite
 * driver queues raw statements other than a SELECT with the writes, so a write lock held by
 * another process would decide such a probe's answer by where it landed in that queue.
 */
export async function pingStore(db: Db): Promise<void> {
  await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
}
