import type { Kysely } from 'kysely';

/*
 * The fleet page counts, per crew member on the page, the listable documents expiring within the
 * window (src/store/repositories/fleet-repo.ts). documents_crew_listable finds a crew member's
 * listable documents but not their expiry, so both stores read every listable document row to
 * test it (about nine per crew member, 1,800 row reads for a page of 200). With `no_expiry` and
 * `expiry_date` in the key, the count is a range scan of the index alone. Not partial: the
 * statement's values are parameters, which a partial index's predicate cannot be matched against.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('documents_crew_expiring')
    .on('documents')
    .columns(['crew_unique_id', 'processing_state', 'is_current', 'is_live', 'no_expiry', 'expiry_date'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('documents_crew_expiring').ifExists().execute();
}
