import { sql, type Kysely } from 'kysely';

/*
 * Delivery reads only pending events, but the outbox keeps every delivered and dead one for the
 * retention (30 days). Beside 2,000,000 finished events SQLite counted the due events through
 * outbox_partner_sequence (partner_id = ?), reading every event of each partner: 16.7 s at the
 * start of each run, against 0.9 s beside 200,000. Postgres took each claim of 32 events from
 * outbox_due (status, next_attempt_at), reading and sorting every partner's due events: 21 ms a
 * claim beside 10,000 due. This index holds the pending events alone, in the order a claim takes
 * them: the count and each claim read the partner's pending events and no more (0.2 ms a claim).
 * Its predicate is a constant, which a statement can be matched against only if it states it as
 * one: src/store/repositories/outbox-repo.ts writes `status = 'pending'` as a literal (PENDING).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('outbox_pending')
    .on('outbox_events')
    .columns(['partner_id', 'next_attempt_at', 'event_id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_pending').ifExists().execute();
}
