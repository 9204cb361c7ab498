import type { Kysely } from 'kysely';
import type { UploadType } from '../../domain/ingest-requests.ts';
import type { Database } from '../../store/database.ts';
import { storeFile } from '../files/stored-files.ts';
import type { IngestDeps } from './apply-changes.ts';
import { retryHeldChanges } from './request-changes.ts';

/** What became of an upload. */
export type UploadOutcome =
  | { outcome: 'created' | 'held_already'; fileSha256: string; contentType: string; size: number; heldApplied: number }
  | { outcome: 'mismatch'; actualSha256: string };

/**
 * Stores an uploaded file under its SHA-256 (docs/ingest.md, "Files"), chunk by chunk as it
 * arrives, in one transaction: bytes whose SHA-256 is not `expected`, or a body broken off, leave
 * nothing stored. A file held already is not written again. Then changes waiting for a file (or
 * anything else) are tried again, as `svc ingest` does after its input; `heldApplied` counts
 * those that applied.
 */
export async function uploadFile(
  db: Kysely<Database>,
  expected: string,
  contentType: UploadType,
  chunks: AsyncIterable<Buffer>,
  deps: IngestDeps,
): Promise<UploadOutcome> {
  const stored = await db.transaction().execute((trx) => storeFile(trx, expected, contentType, chunks, deps.clock().toISOString()));
  if (stored.outcome === 'mismatch') return stored;
  const retried = await retryHeldChanges(db, deps);
  return { outcome: stored.outcome, fileSha256: expected, contentType, size: stored.size, heldApplied: retried.earlierHeld.applied };
}
