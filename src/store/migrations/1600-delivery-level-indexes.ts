import type { Kysely } from 'kysely';

/*
 * The delivery service level (src/store/repositories/delivery-level-repo.ts) reads the events
 * delivered in a window and the first attempts made in it, on every metrics scrape (at most once a
 * second) and for the report and the partner route. No index had either in its key: each read
 * went through the whole outbox and every attempt of the retention (30 days). With these, both are
 * range scans of the window alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('outbox_delivered').on('outbox_events').column('delivered_at').execute();
  await db.schema.createIndex('delivery_attempts_first').on('delivery_attempts').columns(['attempt_no', 'attempted_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('delivery_attempts_first').ifExists().execute();
  await db.schema.dropIndex('outbox_delivered').ifExists().execute();
}
