import { createHash } from 'node:crypto';
import type { Db } from '../../store/database.ts';
import {
  deleteFile,
  findFileHead,
  insertFileChunk,
  insertFileHead,
  readFileChunk,
  setFileSize,
} from '../../store/repositories/files-repo.ts';

/** The size of a stored chunk (the last one of a file may be shorter). */
export const FILE_CHUNK_BYTES = 256 * 1024;

/** A stored file, to be sent: its chunks are read one query at a time as `chunks` is iterated. */
export interface StoredFile {
  contentType: string;
  size: number;
  chunks(): AsyncIterable<Buffer>;
}

/** What became of a file given to storeFile. */
export type StoreFileOutcome = { outcome: 'created' | 'held_already'; size: number } | { outcome: 'mismatch'; actualSha256: string };

/** `source` cut into pieces of exactly FILE_CHUNK_BYTES (the last one shorter), holding at most one piece and one input chunk. */
async function* pieces(source: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (heldBytes + rest.length >= FILE_CHUNK_BYTES) {
      const take = FILE_CHUNK_BYTES - heldBytes;
      yield Buffer.concat([...held, rest.subarray(0, take)], FILE_CHUNK_BYTES);
      rest = rest.subarray(take);
      held = [];
      heldBytes = 0;
    }
    if (rest.length > 0) {
      held.push(rest);
      heldBytes += rest.length;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
}

/**
 * Stores a file under `fileId`, its SHA-256, chunk by chunk as `source` yields it, in the
 * caller's transaction `trx`, as stored at `storedAt` (ISO-8601 UTC). When its bytes do not hash to `fileId`, what was written is deleted
 * again and the outcome is `mismatch`: nothing is stored under a wrong id. A file stored already
 * is not written again (its bytes are still read, to check them).
 */
export async function storeFile(
  trx: Db,
  fileId: string,
  contentType: string,
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  storedAt: string,
): Promise<StoreFileOutcome> {
  const created = await insertFileHead(trx, fileId, contentType, storedAt);
  const hash = createHash('sha256');
  let size = 0;
  let seq = 0;
  for await (const piece of pieces(source)) {
    hash.update(piece);
    size += piece.length;
    if (created) await insertFileChunk(trx, fileId, seq++, piece);
  }
  const actualSha256 = hash.digest('hex');
  if (actualSha256 !== fileId) {
    if (created) await deleteFile(trx, fileId);
    return { outcome: 'mismatch', actualSha256 };
  }
  if (created) await setFileSize(trx, fileId, size);
  return { outcome: created ? 'created' : 'held_already', size };
}

/** A stored file, or undefined; its bytes are read as they are sent, a chunk at a time (or whole, for a file stored before chunks). */
export async function openStoredFile(db: Db, fileId: string): Promise<StoredFile | undefined> {
  const head = await findFileHead(db, fileId);
  if (!head) return undefined;
  const { contentType, size, unchunked } = head;
  async function* chunks(): AsyncGenerator<Buffer> {
    if (unchunked) {
      yield unchunked;
      return;
    }
    let sent = 0;
    for (let seq = 0; sent < size; seq++) {
      const chunk = await readFileChunk(db, fileId, seq);
      // Gone mid-way (the file was erased): stop, so the answer is cut short rather than completed.
      if (!chunk) throw new Error(`file ${fileId} lost chunk ${seq} while it was sent`);
      sent += chunk.length;
      yield chunk;
    }
  }
  return { contentType, size, chunks };
}
