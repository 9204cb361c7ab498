import assert from 'node:assert/strict';
import { it } from 'node:test';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { takeSequences } from '../../src/store/repositories/event-sequences-repo.ts';
import { migrateToJustBefore } from '../support/earlier-schema.ts';
import { describeEachStore } from '../support/stores.ts';
import { insertOutboxRows } from '../support/sync-world.ts';

/*
 * Migration 1500-event-sequence: events written before it are numbered per partner in the order
 * they were created, get the key of their subject, and those still to be sent (pending, dead) carry
 * both in their envelope; delivered and suppressed envelopes keep their bytes. The counters go on
 * after the numbers given.
 */
const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;

function row(eventId: string, partnerId: string, minute: number, eventType: string, crew: string, data: object, status: string) {
  return {
    event_id: eventId,
    partner_id: partnerId,
    event_type: eventType,
    crew_unique_id: crew,
    occurred_at: at(minute),
    body: JSON.stringify({
      schema_version: 1,
      event_id: eventId,
      event_type: eventType,
      occurred_at: at(minute),
      partner_id: partnerId,
      data,
    }),
    status: status as 'pending',
    attempts: 0,
    next_attempt_at: at(minute),
    locked_by: null,
    locked_until: null,
    created_at: at(minute),
    delivered_at: null,
  };
}

describeEachStore(
  'outbox events written before events were numbered',
  ({ store }) => {
    it('are numbered per partner in creation order, keyed by subject, and the envelopes still to be sent carry both', async () => {
      const db = store().db;
      await migrateToJustBefore(db, '1500-event-sequence');
      const compliance = { crew_unique_id: 'crew:1', vessel_id: 'ves%a', overall_status: 'compliant' };
      const rows = [
        row('evt_z', 'ptn_a', 1, 'crew.status.changed', 'crew:1', { crew_unique_id: 'crew:1' }, 'delivered'),
        row('evt_y', 'ptn_a', 2, 'crew.compliance.changed', 'crew:1', compliance, 'pending'),
        row('evt_b', 'ptn_a', 3, 'crew.document.updated', 'crew_2', { crew_unique_id: 'crew_2', document_id: 'doc_9' }, 'dead'),
        row('evt_a', 'ptn_a', 3, 'crew.profile.updated', 'crew_2', { crew_unique_id: 'crew_2' }, 'suppressed'),
        row('evt_c', 'ptn_b', 0, 'crew.document.processed', 'crew_2', { crew_unique_id: 'crew_2', document_id: 'doc_1' }, 'pending'),
      ];
      await insertOutboxRows(db, rows);
      await migrateToLatest(db);

      const after = await db.selectFrom('outbox_events').select(['event_id', 'partner_id', 'sequence', 'subject', 'body']).execute();
      const byId = new Map(after.map((r) => [r.event_id, r]));
      assert.deepEqual(
        ['evt_z', 'evt_y', 'evt_a', 'evt_b', 'evt_c'].map((id) => [id, Number(byId.get(id)!.sequence), byId.get(id)!.subject]),
        [
          ['evt_z', 1, 'status:crew%3A1'],
          ['evt_y', 2, 'compliance:crew%3A1:ves%25a'],
          ['evt_a', 3, 'profile:crew_2'],
          ['evt_b', 4, 'document:doc_9'],
          ['evt_c', 1, 'document:doc_1'],
        ],
        'per partner, by created_at then event_id; each part of a subject percent-encoded',
      );
      const original = new Map(rows.map((r) => [r.event_id, r.body]));
      for (const id of ['evt_z', 'evt_a']) assert.equal(byId.get(id)!.body, original.get(id), `${id}: bytes kept`);
      for (const id of ['evt_y', 'evt_b', 'evt_c']) {
        const { sequence, subject, ...rest } = JSON.parse(byId.get(id)!.body);
        assert.equal(sequence, Number(byId.get(id)!.sequence));
        assert.equal(subject, byId.get(id)!.subject);
        assert.deepEqual(rest, JSON.parse(original.get(id)!), `${id}: the envelope otherwise unchanged`);
        assert.deepEqual(Object.keys(JSON.parse(byId.get(id)!.body)).slice(-3), ['sequence', 'subject', 'data']);
      }
      assert.equal(await takeSequences(db, 'ptn_a', 2), 5, 'the counter goes on after the numbers given');
      assert.equal(await takeSequences(db, 'ptn_b', 1), 2);
      assert.equal(await takeSequences(db, 'ptn_new', 1), 1);
    });
  },
  { migrate: false },
);
