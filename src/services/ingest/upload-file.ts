import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { UploadType } from '../../domain/ingest-requests.ts';
import type { Database } from '../../store/database.ts';
import { existingIds } from '../../store/repositories/ids-repo.ts';
import { insertFiles } from '../../store/repositories/reference-data-repo.ts';
import type { IngestDeps } from './apply-changes.ts';
import { retryHeldChanges } from './request-changes.ts';

/** What became of an upload. */
export type UploadOutcome =
  | { outcome: 'created' | 'held_already'; fileSha256: string; contentType: string; size: number; heldApplied: number }
  | { outcome: 'mismatch'; actualSha256: string };

/**
 * Stores an uploaded file under its SHA-256 (docs/ingest.md, "Files"): the bytes are hashed as
 * they arrive and refused when their SHA-256 is not `expected`, so nothing is stored under a
 * wrong id. A file held already is not written again. Then changes waiting for a file (or
 * anything else) are tried again, as `svc ingest` does after its input; `heldApplied` counts
 * those that applied.
 */
export async function uploadFile(db: Kysely<Database>, expected: string, contentType: UploadType, chunks: AsyncIterable<Buffer>, deps: IngestDeps):
Promise<UploadOutcome> {
  const hash = createHash('sha256');
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    parts.push(chunk);
    size += chunk.length;
  }
  const actualSha256 = hash.digest('hex');
  if (actualSha256 !== expected) return { outcome: 'mismatch', actualSha256 };
  const heldAlready = (await existingIds(db, 'files', [expected])).has(expected);
  if (!heldAlready) await insertFiles(db, [{ file_id: expected, content_type: contentType, size, bytes: Buffer.concat(parts, size) }]);
  const retried = await retryHeldChanges(db, deps);
  return {
    outcome: heldAlready ? 'held_already' : 'created', fileSha256: expected, contentType, size, heldApplied: retried.earlierHeld.applied,
  };
}
