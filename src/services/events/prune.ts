import type { Clock } from '../../domain/clock.ts';
import type { Db } from '../../store/database.ts';
import { deleteEvents, prunableEventIds } from '../../store/repositories/event-feed-repo.ts';

const BATCH = 1000;
const DAY_MS = 86_400_000;

/** The oldest creation time the events feed still lists. */
export function retentionStart(clock: Clock, retentionDays: number): string {
  return new Date(clock().getTime() - retentionDays * DAY_MS).toISOString();
}

/**
 * Deletes delivered and dead events older than the retention (with their attempts and dead
 * letters), a batch per transaction; pending events stay until delivered. Returns how many went.
 */
export async function pruneEvents(db: Db, clock: Clock, retentionDays: number): Promise<number> {
  const before = retentionStart(clock, retentionDays);
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute(async (trx) => {
      const ids = await prunableEventIds(trx, before, BATCH);
      await deleteEvents(trx, ids);
      return ids.length;
    });
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
