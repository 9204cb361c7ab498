import type { Kysely } from 'kysely';

/*
 * Compliance notices ahead of time (docs/webhooks.md, "Compliance notices ahead of time"): the
 * lead times, in days, an endpoint chose at registration, as a JSON array. Null for every endpoint
 * before, which then gets the default (90, 60 and 30 days) should it subscribe to the notices.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('notice_lead_days', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('notice_lead_days').execute();
}
