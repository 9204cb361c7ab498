import { utcDate, type Clock } from '../../domain/clock.ts';
import type { Db } from '../../store/database.ts';
import { deleteUnusedFilesStoredBefore } from '../../store/repositories/files-repo.ts';
import { findSetting, putSetting } from '../../store/repositories/settings-repo.ts';

/** How long a stored file may stay unused (an upload no change came for) before `svc sync` deletes it. */
export const UNUSED_FILE_HOURS = 48;
/** The settings row holding the instant of the last finished prune of unused files (ISO-8601 UTC). */
export const FILES_PRUNED_AT = 'files_pruned_at';

const BATCH = 500;
const HOUR_MS = 3_600_000;

/**
 * Deletes files stored more than UNUSED_FILE_HOURS ago that no document, crew photo or held change
 * names (docs/ingest.md, "Files"), at most once per UTC day, as the audit log's prune does
 * (src/services/audit-retention.ts): a batch per transaction, the instant recorded once every
 * batch is done. Returns how many went.
 */
export async function pruneUnusedFiles(db: Db, clock: Clock): Promise<number> {
  const now = clock();
  const last = await findSetting(db, FILES_PRUNED_AT);
  if (last !== undefined && utcDate(new Date(last)) === utcDate(now)) return 0;
  const before = new Date(now.getTime() - UNUSED_FILE_HOURS * HOUR_MS).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await db.transaction().execute((trx) => deleteUnusedFilesStoredBefore(trx, before, BATCH));
    total += deleted;
    if (deleted < BATCH) break;
  }
  await putSetting(db, FILES_PRUNED_AT, now.toISOString());
  return total;
}
