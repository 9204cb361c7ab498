import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect-of.ts';

/*
 * Files stored in pieces (docs/ingest.md, "Files"): `file_chunks` holds a file's bytes as numbered
 * chunks (seq from 0, at most 256 KiB each), written as the file is read and read back one at a
 * time when it is downloaded, so no file is ever held whole in memory. Its `files` row keeps the
 * id, type and size, with an empty `bytes`; rows written before this migration keep their bytes
 * there and have no chunks. Deleting a file deletes its chunks.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('file_chunks')
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.file_id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', dialectOf(db) === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pk', ['file_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_chunks').execute();
}
