import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-of.ts';

/*
 * Order of events (docs/webhooks.md, "Order: sequence and subject"): each event gets a sequence
 * number per partner, taken from the partner's counter row in the transaction that writes it, and
 * the key of the subject it describes.
 *
 * Events written before are numbered per partner in the order they were created (created_at, then
 * event_id) and the counters start after them; their subjects are worked out from the event type,
 * the crew member and the payload. The envelopes still to be sent (pending or dead, which a replay
 * sends again) get both fields; delivered and suppressed ones keep the bytes they had, and the
 * events feed shows both fields beside them. The strings below are frozen copies of the event
 * types and of subjectKey (src/domain/event-catalogue.ts) as they were at this migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('partner_event_sequences')
    .addColumn('partner_id', 'text', (c) => c.primaryKey())
    .addColumn('last_sequence', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('outbox_events').addColumn('sequence', 'integer').execute();
  await db.schema.alterTable('outbox_events').addColumn('subject', 'text').execute();

  await sql`
    update outbox_events set sequence = numbered.n
    from (select event_id, row_number() over (partition by partner_id order by created_at, event_id) as n from outbox_events) as numbered
    where numbered.event_id = outbox_events.event_id`.execute(db);
  await sql`
    insert into partner_event_sequences (partner_id, last_sequence)
    select partner_id, max(sequence) from outbox_events group by partner_id`.execute(db);

  const part = (value: ReturnType<typeof sql>) => sql`replace(replace(${value}, '%', '%25'), ':', '%3A')`;
  const field = (name: string) =>
    dialectOf(db) === 'postgres'
      ? sql`(body::jsonb #>> ${sql.lit(`{data,${name}}`)})`
      : sql`json_extract(body, ${sql.lit(`$.data.${name}`)})`;
  const crew = part(sql`crew_unique_id`);
  const subjects = [
    [['crew.status.changed'], sql`'status:' || ${crew}`],
    [['crew.profile.updated'], sql`'profile:' || ${crew}`],
    [['crew.compliance.changed'], sql`'compliance:' || ${crew} || ':' || ${part(field('vessel_id'))}`],
    [['crew.document.processed', 'crew.document.updated'], sql`'document:' || ${part(field('document_id'))}`],
  ] as const;
  for (const [types, subject] of subjects) {
    await sql`update outbox_events set subject = ${subject} where event_type in (${sql.join(types.map((t) => sql.lit(t)))})`.execute(db);
  }

  // Envelopes still to be sent carry both fields, placed before `data` as new envelopes have them.
  let after = '';
  for (;;) {
    const rows = (await db
      .selectFrom('outbox_events')
      .select(['event_id', 'body', 'sequence', 'subject'])
      .where('status', 'in', ['pending', 'dead'])
      .where('subject', 'is not', null)
      .where('event_id', '>', after)
      .orderBy('event_id')
      .limit(500)
      .execute()) as Array<{ event_id: string; body: string; sequence: number; subject: string }>;
    if (rows.length === 0) break;
    for (const row of rows) {
      const { data, ...head } = JSON.parse(row.body) as Record<string, unknown>;
      const body = JSON.stringify({ ...head, sequence: row.sequence, subject: row.subject, data });
      await db.updateTable('outbox_events').set({ body }).where('event_id', '=', row.event_id).execute();
    }
    after = rows.at(-1)!.event_id;
  }

  await db.schema.createIndex('outbox_partner_sequence').unique().on('outbox_events').columns(['partner_id', 'sequence']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_partner_sequence').ifExists().execute();
  await db.schema.alterTable('outbox_events').dropColumn('subject').execute();
  await db.schema.alterTable('outbox_events').dropColumn('sequence').execute();
  await db.schema.dropTable('partner_event_sequences').execute();
}
