import assert from 'node:assert/strict';
import { before, beforeEach, it } from 'node:test';
import type { OutboxStatus } from '../../src/domain/vocabulary.ts';
import { listDeadLetters, upsertDeadLetter } from '../../src/store/repositories/dead-letters-repo.ts';
import { insertDeliveryAttempts, listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import {
  deleteEvents,
  listFeedEvents,
  prunableEventIds,
  sequenceAtFeedKey,
  type FeedQuery,
} from '../../src/store/repositories/event-feed-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { insertOutboxRows, resetDelivery, seedPartners } from '../support/sync-world.ts';

const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;

describeEachStore('the events feed and event pruning in the store', ({ store }) => {
  before(async () => seedPartners(store().db, 'ptn_a', 'ptn_b'));
  beforeEach(async () => resetDelivery(store().db));

  async function event(
    eventId: string,
    minute: number,
    o: { partnerId?: string; type?: string; crew?: string | null; status?: OutboxStatus; sequence?: number } = {},
  ) {
    await insertOutboxRows(store().db, [
      {
        event_id: eventId,
        partner_id: o.partnerId ?? 'ptn_a',
        event_type: o.type ?? 'crew.status.changed',
        crew_unique_id: o.crew === undefined ? 'crew_1' : o.crew,
        occurred_at: at(minute),
        body: `{"event_id":"${eventId}"}`,
        status: o.status ?? 'pending',
        attempts: 0,
        next_attempt_at: at(minute),
        locked_by: null,
        locked_until: null,
        created_at: at(minute),
        delivered_at: null,
        sequence: o.sequence ?? 1000 + ++numbered,
        subject: `status:${o.crew ?? 'crew_1'}`,
      },
    ]);
  }
  let numbered = 0;
  const query = (q: Partial<FeedQuery> = {}): FeedQuery => ({
    partnerId: 'ptn_a',
    types: ['crew.status.changed', 'crew.profile.updated'],
    since: at(0),
    afterSequence: 0,
    limit: 10,
    ...q,
  });
  const ids = async (q: Partial<FeedQuery> = {}) => (await listFeedEvents(store().db, query(q))).map((e) => e.eventId);

  it("a partner's events in sequence order, by type, crew member and retention; no types lists nothing", async () => {
    await event('evt_old', 0, { sequence: 1 });
    await event('evt_b', 2, { type: 'crew.profile.updated', crew: 'crew_2', sequence: 2 });
    await event('evt_c', 2, { sequence: 3 });
    await event('evt_a', 5, { status: 'delivered', sequence: 4 });
    await event('evt_other', 3, { partnerId: 'ptn_b' });
    await event('evt_doc', 4, { type: 'crew.document.updated' });
    assert.deepEqual(await ids(), ['evt_old', 'evt_b', 'evt_c', 'evt_a']);
    assert.deepEqual(await ids({ types: ['crew.profile.updated'] }), ['evt_b']);
    assert.deepEqual(await ids({ types: [] }), []);
    assert.deepEqual(await ids({ crewUniqueId: 'crew_2' }), ['evt_b']);
    assert.deepEqual(await ids({ since: at(2) }), ['evt_b', 'evt_c', 'evt_a'], 'since is inclusive');
    const [first] = await listFeedEvents(store().db, query({ since: at(5) }));
    assert.deepEqual(first, {
      eventId: 'evt_a',
      eventType: 'crew.status.changed',
      crewUniqueId: 'crew_1',
      createdAt: at(5),
      body: '{"event_id":"evt_a"}',
      status: 'delivered',
      attempts: 0,
      payloadScope: null,
      sequence: 4,
      subject: 'status:crew_1',
    });
  });

  it('keyset pages: strictly after a sequence number, none skipped or repeated, whatever the times and ids', async () => {
    const made: string[] = [];
    for (let i = 0; i < 23; i++) {
      const id = `evt_${String((i * 7) % 23).padStart(2, '0')}`;
      await event(id, 9 - (i % 4), { sequence: i + 1 });
      made.push(id);
    }
    const seen: string[] = [];
    let afterSequence = 0;
    for (let page = 0; page < 10; page++) {
      const rows = await listFeedEvents(store().db, query({ afterSequence, limit: 5 }));
      assert.ok(rows.length <= 5);
      seen.push(...rows.map((r) => r.eventId));
      if (rows.length < 5) break;
      afterSequence = rows.at(-1)!.sequence;
    }
    assert.deepEqual(seen, made);
  });

  it('a cursor of the first kind, at (created_at, event_id), stands at the highest sequence at or before that key', async () => {
    const db = store().db;
    await event('evt_a', 1, { sequence: 1 });
    await event('evt_c', 1, { sequence: 2 });
    await event('evt_b', 2, { sequence: 3 });
    await event('evt_other', 1, { partnerId: 'ptn_b', sequence: 9 });
    assert.equal(await sequenceAtFeedKey(db, 'ptn_a', { createdAt: at(1), eventId: 'evt_b' }), 1);
    assert.equal(await sequenceAtFeedKey(db, 'ptn_a', { createdAt: at(1), eventId: 'evt_c' }), 2);
    assert.equal(await sequenceAtFeedKey(db, 'ptn_a', { createdAt: at(3), eventId: 'evt_0' }), 3);
    assert.equal(await sequenceAtFeedKey(db, 'ptn_a', { createdAt: at(0), eventId: 'evt_z' }), 0);
  });

  it('prunable: delivered or dead, created strictly before the bound, oldest first, a batch at a time; deleting takes attempts and dead letters along', async () => {
    const db = store().db;
    await event('evt_d1', 1, { status: 'delivered' });
    await event('evt_x2', 2, { status: 'dead' });
    await event('evt_p3', 3, { status: 'pending' });
    await event('evt_d4', 4, { status: 'delivered' });
    await event('evt_d5', 5, { status: 'delivered' });
    assert.deepEqual(await prunableEventIds(db, at(5), 10), ['evt_d1', 'evt_x2', 'evt_d4']);
    assert.deepEqual(await prunableEventIds(db, at(5), 2), ['evt_d1', 'evt_x2']);
    assert.deepEqual(await prunableEventIds(db, at(1), 10), []);

    await insertDeliveryAttempts(db, [
      {
        eventId: 'evt_x2',
        attemptNo: 1,
        attemptedAt: at(2),
        url: 'https://h.example.com',
        statusCode: 410,
        latencyMs: 1,
        error: null,
        responseBody: null,
        outcome: 'dead',
      },
    ]);
    await upsertDeadLetter(db, {
      eventId: 'evt_x2',
      partnerId: 'ptn_a',
      eventType: 'crew.status.changed',
      reason: 'HTTP 410',
      deadAt: at(2),
    });
    await deleteEvents(db, ['evt_d1', 'evt_x2']);
    await deleteEvents(db, []);
    assert.equal(await findOutboxEvent(db, 'evt_x2'), undefined);
    assert.deepEqual(await listDeliveryAttempts(db), []);
    assert.deepEqual(await listDeadLetters(db), []);
    assert.deepEqual(await ids({ limit: 100 }), ['evt_p3', 'evt_d4', 'evt_d5']);
  });
});
