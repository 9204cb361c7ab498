import { sql, type Kysely } from 'kysely';

/*
 * When each file was stored (ISO-8601 UTC), so `svc sync` can delete a file no document, photo or
 * held change has named for UNUSED_FILE_HOURS (docs/ingest.md, "Files"; src/services/files/
 * unused-files.ts): an upload no change came for. Files stored before count from this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('stored_at', 'text').execute();
  await sql`update files set stored_at = ${new Date().toISOString()}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').dropColumn('stored_at').execute();
}
