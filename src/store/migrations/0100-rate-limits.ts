import type { Kysely } from 'kysely';

/*
 * Per-partner request counters of the read API, one row per bucket and fixed window, so every
 * server process sharing the store shares the limit (see src/services/rate-limit.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['bucket', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limits_window').on('rate_limits').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').ifExists().execute();
}
