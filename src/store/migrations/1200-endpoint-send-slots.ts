import type { Kysely } from 'kysely';

/*
 * Requests in flight to one webhook endpoint, counted across every process that delivers from
 * this store (docs/webhooks.md, "Requests at once"): slot rows 0…N-1 of an endpoint, each held by
 * one attempt until it ends or `held_until` (wall clock, ISO-8601 UTC) passes. Rows are made on
 * first use; a free slot has `held_by` null or a `held_until` in the past.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('endpoint_send_slots')
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('held_by', 'text')
    .addColumn('held_until', 'text')
    .addPrimaryKeyConstraint('endpoint_send_slots_pk', ['partner_id', 'slot'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('endpoint_send_slots').ifExists().execute();
}
