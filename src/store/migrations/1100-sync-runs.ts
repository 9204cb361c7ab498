import type { Kysely } from 'kysely';

/*
 * Every `svc sync` run, as monitoring reads it at scrape time (docs/operations.md): several
 * servers and a cron job on other hosts share one store, so the last run lives there, not in a
 * process. `outcome` is 'running' until the run ends.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sync_runs')
    .addColumn('run_id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('events_created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dead_lettered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivery_errors', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sync_runs_started').on('sync_runs').columns(['kind', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_runs').ifExists().execute();
}
