import { utcDate, type Clock } from '../domain/clock.ts';
import type { Db } from '../store/database.ts';
import { deleteAuditRowsBefore } from '../store/repositories/audit-repo.ts';
import { findSetting, putSetting } from '../store/repositories/settings-repo.ts';
import { retentionStart } from './events/prune.ts';

const BATCH = 1000;
/** The settings row holding the instant of the last finished audit prune (ISO-8601 UTC). */
export const AUDIT_PRUNED_AT = 'audit_pruned_at';

/**
 * Deletes audit rows older than the retention, at most once per UTC day: the first call of a day
 * prunes and records the instant in the settings table, later calls that day return 0. A batch per
 * transaction, so the first prune of a large log holds no long transaction; the instant is recorded
 * once every batch is done, so a run stopped halfway prunes again on the next run. Returns how many went.
 * `retentionDays` 0 keeps the log whole.
 */
export async function pruneAuditLog(db: Db, clock: Clock, retentionDays: number): Promise<number> {
  if (retentionDays === 0) return 0;
  const now = clock();
  const last = await findSetting(db, AUDIT_PRUNED_AT);
  if (last !== undefined && utcDate(new Date(last)) === utcDate(now)) return 0;
  const before = retentionStart(() => now, retentionDays);
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute((trx) => deleteAuditRowsBefore(trx, before, BATCH));
    total += deleted;
    if (deleted < BATCH) break;
  }
  await putSetting(db, AUDIT_PRUNED_AT, now.toISOString());
  return total;
}
