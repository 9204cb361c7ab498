import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../database.ts';
import { idSet } from './id-set.ts';

/*
 * Stored files (docs/ingest.md, "Files"): a `files` row per file, its bytes in `file_chunks`
 * (a row written before chunks keeps them in `files.bytes`). One query per chunk, so a file is
 * never read or written whole.
 */

/** A stored file's type and size, and its bytes when it was stored before chunks (else null). */
export async function findFileHead(
  db: Db,
  fileId: string,
): Promise<{ contentType: string; size: number; unchunked: Buffer | null } | undefined> {
  const row = await db.selectFrom('files').select(['content_type', 'size', 'bytes']).where('file_id', '=', fileId).executeTakeFirst();
  if (!row) return undefined;
  const size = Number(row.size);
  return { contentType: row.content_type, size, unchunked: row.bytes.length === size ? Buffer.from(row.bytes) : null };
}

/** One chunk of a file, or undefined past the last (or when the file is gone). */
export async function readFileChunk(db: Db, fileId: string, seq: number): Promise<Buffer | undefined> {
  const row = await db.selectFrom('file_chunks').select('bytes').where('file_id', '=', fileId).where('seq', '=', seq).executeTakeFirst();
  return row && Buffer.from(row.bytes);
}

/** Adds a file's row with no bytes yet, stored at `storedAt`; false when a file with this id is stored already. */
export async function insertFileHead(db: Db, fileId: string, contentType: string, storedAt: string): Promise<boolean> {
  const result = await db
    .insertInto('files')
    .values({ file_id: fileId, content_type: contentType, size: 0, bytes: Buffer.alloc(0), stored_at: storedAt })
    .onConflict((oc) => oc.column('file_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function insertFileChunk(db: Db, fileId: string, seq: number, bytes: Buffer): Promise<void> {
  await db.insertInto('file_chunks').values({ file_id: fileId, seq, bytes }).execute();
}

export async function setFileSize(db: Db, fileId: string, size: number): Promise<void> {
  await db.updateTable('files').set({ size }).where('file_id', '=', fileId).execute();
}

/** Deletes a file and (by cascade) its chunks. */
export async function deleteFile(db: Db, fileId: string): Promise<void> {
  await db.deleteFrom('files').where('file_id', '=', fileId).execute();
}

/**
 * True of a file no document, crew photo or held change names. A held change names a file by its
 * SHA-256 in its text, so a file it waits for stays. The lookups go through documents_file and
 * crew_photo_file (src/store/migrations/1810-file-reference-indexes.ts).
 */
function namedByNothing(eb: ExpressionBuilder<Database, 'files'>) {
  return eb.and([
    eb.not(eb.exists(eb.selectFrom('documents').select('document_id').whereRef('documents.file_id', '=', 'files.file_id'))),
    eb.not(eb.exists(eb.selectFrom('crew').select('crew_unique_id').whereRef('crew.photo_file_id', '=', 'files.file_id'))),
    eb.not(
      eb.exists(
        eb
          .selectFrom('ingest_held')
          .select('entity_id')
          .where(sql<boolean>`ingest_held.change like '%' || files.file_id || '%'`),
      ),
    ),
  ]);
}

/** Deletes, of the files named, those nothing names any more (namedByNothing), with their chunks. */
export async function deleteUnusedFiles(db: Db, fileIds: readonly string[]): Promise<void> {
  const ids = [...new Set(fileIds)];
  if (ids.length === 0) return;
  await db.deleteFrom('files').where('file_id', 'in', idSet(db, ids)).where(namedByNothing).execute();
}

/**
 * Deletes (with their chunks) up to `limit` files stored before `before` that nothing names
 * (namedByNothing); returns how many went.
 */
export async function deleteUnusedFilesStoredBefore(db: Db, before: string, limit: number): Promise<number> {
  const ids = await db.selectFrom('files').select('file_id').where('stored_at', '<', before).where(namedByNothing).limit(limit).execute();
  if (ids.length === 0) return 0;
  await db
    .deleteFrom('files')
    .where(
      'file_id',
      'in',
      idSet(
        db,
        ids.map((r) => r.file_id),
      ),
    )
    .execute();
  return ids.length;
}
