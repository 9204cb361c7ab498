import type { Kysely } from 'kysely';

/*
 * Ingestion (docs/ingest.md). `ingest_versions`: per entity and id, the newest version the source
 * sent, and the full record as it stands after it (JSON, the change format's fields), which a
 * patch is merged into; after a delete, `record` is null and `deleted` 1 (a tombstone: an older
 * change arriving late is stale, and no personal data is kept). `ingest_held`: changes that refer
 * to an entity not known yet, retried by later batches until `held_until`, then rejected.
 * `ingest_requests`: the answers of POST /api/v2/admin/changes by Idempotency-Key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ingest_versions')
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('record', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ingest_versions_pk', ['entity', 'entity_id'])
    .execute();
  await db.schema
    .createTable('ingest_held')
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('crew_unique_id', 'text')
    .addColumn('held_at', 'text', (c) => c.notNull())
    .addColumn('held_until', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ingest_held_pk', ['entity', 'entity_id', 'version'])
    .execute();
  await db.schema.createIndex('ingest_held_crew').on('ingest_held').column('crew_unique_id').execute();
  await db.schema
    .createTable('ingest_requests')
    .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
    .addColumn('body_sha256', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ingest_requests').ifExists().execute();
  await db.schema.dropIndex('ingest_held_crew').ifExists().execute();
  await db.schema.dropTable('ingest_held').ifExists().execute();
  await db.schema.dropTable('ingest_versions').ifExists().execute();
}
