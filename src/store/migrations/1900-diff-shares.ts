import type { Kysely } from 'kysely';

/*
 * A diff round split across processes (docs/webhooks.md, "Several diff processes"): one row per
 * share of the round's partners, claimed by one process at a time until `claimed_until`, `done`
 * once its partners are diffed. The round itself (its change range, date and instant) is the
 * `sync.diff_round` row of `settings`, written with the shares. `result` holds the events the
 * share created per partner, for the run that closes the round to report.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('diff_shares')
    .addColumn('round_id', 'text', (c) => c.notNull())
    .addColumn('share', 'integer', (c) => c.notNull())
    .addColumn('partner_ids', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('result', 'text')
    .addPrimaryKeyConstraint('diff_shares_pk', ['round_id', 'share'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('diff_shares').ifExists().execute();
}
