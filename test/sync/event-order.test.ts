import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { memorySubjectLedger, type WebhookEvent } from '../../examples/webhook-receiver.ts';
import { subjectKey } from '../../src/domain/event-catalogue.ts';
import type { PlannedEvent } from '../../src/domain/events.ts';
import { insertOutboxEvents } from '../../src/store/repositories/outbox-repo.ts';
import { numberedEvents } from '../../src/sync/diff/numbered-events.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * The receiver rule of docs/webhooks.md ("Order: sequence and subject"), as
 * examples/webhook-receiver.ts applies it: keep the highest sequence applied per subject, drop an
 * event at or below it. Whatever order events are created in (across partners and subjects, in
 * transactions of any size) and whatever order their deliveries arrive in (retries of one that
 * arrived, replays long after), the receiver ends with the newest state of every subject.
 */
const PARTNERS = ['ptn_order_a', 'ptn_order_b'];
const SUBJECTS: ReadonlyArray<Pick<PlannedEvent, 'type' | 'subject'>> = [
  { type: 'crew.status.changed', subject: subjectKey('status', 'crew_1') },
  { type: 'crew.compliance.changed', subject: subjectKey('compliance', 'crew_1', 'ves_a') },
  { type: 'crew.compliance.changed', subject: subjectKey('compliance', 'crew_1', 'ves:b') },
  { type: 'crew.document.updated', subject: subjectKey('docs', 'crew_1', 'doc_1') },
];

const caseArb = fc
  .array(
    fc.record({
      partner: fc.nat({ max: PARTNERS.length - 1 }),
      subject: fc.nat({ max: SUBJECTS.length - 1 }),
      // The transaction it is written in ends after it (events of one transaction are numbered together).
      endsBatch: fc.boolean(),
      // When each delivery of it arrives, among all deliveries: at least one, more for retries and replays.
      arrivals: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((events) => events.map((e, n) => ({ ...e, n })));

describeEachStore('events partners can order: a receiver keeping the highest sequence per subject', ({ store }) => {
  it('ends with the newest state of every subject for random creation and delivery orders (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (created) => {
        const db = store().db;
        await db.deleteFrom('outbox_events').where('partner_id', 'in', PARTNERS).execute();
        await db.deleteFrom('partner_event_sequences').where('partner_id', 'in', PARTNERS).execute();
        let batch: typeof created = [];
        for (const e of created) {
          batch.push(e);
          if (!e.endsBatch && e !== created.at(-1)) continue;
          const items = batch.map((b) => ({
            partnerId: PARTNERS[b.partner]!,
            event: { ...SUBJECTS[b.subject]!, crewUniqueId: 'crew_1', data: { state: b.n } },
          }));
          await db.transaction().execute(async (trx) => {
            const ids = batch.map((b) => `evt_order_${b.n}`);
            await insertOutboxEvents(trx, await numberedEvents(trx, items, '2026-11-22T10:00:00.000Z', () => ids.shift()!));
          });
          batch = [];
        }
        const rows = await db.selectFrom('outbox_events').select(['event_id', 'body']).where('partner_id', 'in', PARTNERS).execute();
        const bodies = new Map(rows.map((r) => [r.event_id, r.body]));

        const arrivals = created
          .flatMap((e) => e.arrivals.map((when) => ({ when, body: bodies.get(`evt_order_${e.n}`)! })))
          .sort((a, b) => a.when - b.when);
        const ledgers = new Map(PARTNERS.map((p) => [p, memorySubjectLedger()]));
        const state = new Map<string, unknown>();
        for (const { body } of arrivals) {
          const event = JSON.parse(body) as WebhookEvent;
          if (ledgers.get(event.partner_id)!.offer(event)) state.set(`${event.partner_id} ${event.subject}`, event.data.state);
        }

        const newest = new Map(created.map((e) => [`${PARTNERS[e.partner]} ${SUBJECTS[e.subject]!.subject}`, e.n]));
        assert.deepEqual(state, newest);
        for (const partner of PARTNERS) {
          const numbers = created
            .filter((e) => PARTNERS[e.partner] === partner)
            .map((e) => (JSON.parse(bodies.get(`evt_order_${e.n}`)!) as WebhookEvent).sequence);
          assert.deepEqual(
            numbers,
            numbers.map((_, k) => k + 1),
            'numbered from 1 in creation order',
          );
        }
      }),
      { numRuns: 40 },
    );
  });
});
