import type { Kysely } from 'kysely';

/*
 * The events feed pages a partner's events by (created_at, event_id), and each sync run prunes
 * events past the retention by created_at (src/services/events/).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('outbox_partner_feed').on('outbox_events').columns(['partner_id', 'created_at', 'event_id']).execute();
  await db.schema.createIndex('outbox_created').on('outbox_events').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_created').ifExists().execute();
  await db.schema.dropIndex('outbox_partner_feed').ifExists().execute();
}
