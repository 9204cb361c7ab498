import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-of.ts';

/*
 * The scope an outbox event's payload needs besides its type's, fixed when the diff built it
 * (docs/webhooks.md, "Medical data in payloads"): `crew:medical:read` for a crew.compliance.changed
 * whose next_expiry_date came from a medical row, which the payload alone cannot show.
 *
 * Events written before this migration carry no such record; those whose next_expiry_date is the
 * expiry of a medical-class document of their crew member get one, so that a partner that loses
 * crew:medical:read is not sent them. The strings are frozen copies of the event type and scope.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_events').addColumn('payload_scope', 'text').execute();
  const nextExpiry =
    dialectOf(db) === 'postgres'
      ? sql`(outbox_events.body::jsonb #>> '{data,next_expiry_date}')`
      : sql`json_extract(outbox_events.body, '$.data.next_expiry_date')`;
  await sql`
    update outbox_events set payload_scope = 'crew:medical:read'
    where event_type = 'crew.compliance.changed'
      and exists (
        select 1 from documents d
        where d.crew_unique_id = outbox_events.crew_unique_id and d.document_class = 'medical' and d.expiry_date = ${nextExpiry}
      )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_events').dropColumn('payload_scope').execute();
}
