import assert from 'node:assert/strict';
import { before, beforeEach, it } from 'node:test';
import { listDeadLetters, markReplayed, upsertDeadLetter, type DeadLetter } from '../../src/store/repositories/dead-letters-repo.ts';
import { insertDeliveryAttempts, listDeliveryAttempts, type DeliveryAttempt } from '../../src/store/repositories/delivery-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { resetDelivery, seedEvent, seedPartners, T0 } from '../support/sync-world.ts';

const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;

describeEachStore('dead letters in the store', ({ store }) => {
  const ids: Record<string, string> = {};
  before(async () => seedPartners(store().db, 'ptn_a', 'ptn_b'));
  beforeEach(async () => {
    await resetDelivery(store().db);
    for (const [name, partner] of [
      ['a1', 'ptn_a'],
      ['a2', 'ptn_a'],
      ['b1', 'ptn_b'],
    ] as const)
      ids[name] = (await seedEvent(store().db, partner)).eventId;
  });
  const dead = (name: string, partnerId: string, minute: number, eventType = 'crew.status.changed') =>
    upsertDeadLetter(store().db, { eventId: ids[name]!, partnerId, eventType, reason: `gone at ${minute}`, deadAt: at(minute) });
  const names = (letters: DeadLetter[]) => letters.map((d) => Object.keys(ids).find((k) => ids[k] === d.eventId));

  it('listed oldest first (event id breaks ties), by partner, type and inclusive time bounds, limited', async () => {
    await dead('a2', 'ptn_a', 5);
    await dead('a1', 'ptn_a', 5);
    await dead('b1', 'ptn_b', 9, 'crew.profile.updated');
    const db = store().db;
    const tie = [ids.a1!, ids.a2!].sort().map((id) => Object.keys(ids).find((k) => ids[k] === id));
    assert.deepEqual(names(await listDeadLetters(db)), [...tie, 'b1']);
    assert.deepEqual(names(await listDeadLetters(db, { limit: 1 })), [tie[0]]);
    assert.deepEqual(names(await listDeadLetters(db, { partnerId: 'ptn_b' })), ['b1']);
    assert.deepEqual(names(await listDeadLetters(db, { eventType: 'crew.profile.updated' })), ['b1']);
    assert.deepEqual(names(await listDeadLetters(db, { since: at(5), until: at(5) })).sort(), ['a1', 'a2'], 'both bounds inclusive');
    assert.deepEqual(await listDeadLetters(db, { since: at(6), until: at(8) }), []);
    const [b1] = await listDeadLetters(db, { partnerId: 'ptn_b' });
    assert.deepEqual(b1, {
      eventId: ids.b1,
      partnerId: 'ptn_b',
      eventType: 'crew.profile.updated',
      reason: 'gone at 9',
      deadAt: at(9),
      replayedAt: null,
    });
  });

  it('a replay is marked; an event that dies again gets a fresh row state (not replayed, the new reason and time)', async () => {
    const db = store().db;
    await dead('a1', 'ptn_a', 1);
    await dead('a2', 'ptn_a', 2);
    await markReplayed(db, [ids.a1!], at(3));
    assert.deepEqual(names(await listDeadLetters(db, { unreplayedOnly: true })), ['a2']);
    assert.equal((await listDeadLetters(db, { partnerId: 'ptn_a' })).find((d) => d.eventId === ids.a1)?.replayedAt, at(3));
    await dead('a1', 'ptn_a', 7);
    const again = (await listDeadLetters(db)).find((d) => d.eventId === ids.a1);
    assert.deepEqual([again?.replayedAt, again?.deadAt, again?.reason], [null, at(7), 'gone at 7']);
    assert.equal((await listDeadLetters(db)).length, 2, 'still one row per event');
    await markReplayed(db, [], at(8));
    await markReplayed(db, ['evt_absent'], at(8));
    assert.deepEqual(names(await listDeadLetters(db, { unreplayedOnly: true })).sort(), ['a1', 'a2']);
  });
});

describeEachStore('delivery attempts in the store', ({ store }) => {
  const ids: Record<string, string> = {};
  before(async () => seedPartners(store().db, 'ptn_a', 'ptn_b'));
  beforeEach(async () => {
    await resetDelivery(store().db);
    ids.a = (await seedEvent(store().db, 'ptn_a')).eventId;
    ids.b = (await seedEvent(store().db, 'ptn_b')).eventId;
  });
  const attempt = (
    eventId: string,
    attemptNo: number,
    minute: number,
    extra: Partial<DeliveryAttempt> = {},
  ): Omit<DeliveryAttempt, 'attemptId'> => ({
    eventId,
    attemptNo,
    attemptedAt: at(minute),
    url: 'https://hooks.example.com/x',
    statusCode: 503,
    latencyMs: 12,
    error: null,
    responseBody: 'busy',
    outcome: 'retry',
    ...extra,
  });

  it("an attempt reads back as written, with its event's partner and type; none for an unknown event", async () => {
    const db = store().db;
    const a = attempt(ids.a!, 1, 1, { statusCode: null, error: 'timeout after 10000 ms', responseBody: null });
    await insertDeliveryAttempts(db, [a]);
    const [got] = await listDeliveryAttempts(db, { eventId: ids.a });
    // The event is still pending: its next attempt is due when it was seeded due (T0).
    assert.deepEqual(
      { ...got, attemptId: 0 },
      { ...a, attemptId: 0, partnerId: 'ptn_a', eventType: 'crew.status.changed', nextAttemptAt: T0 },
    );
    assert.equal(typeof got?.attemptId, 'number');
    assert.deepEqual(await listDeliveryAttempts(db, { eventId: 'evt_absent' }), []);
  });

  it('newest first (same time: the later insert first), by partner or event, 100 unless a limit is given; 600 written in one call', async () => {
    const db = store().db;
    await insertDeliveryAttempts(db, [
      attempt(ids.a!, 1, 1),
      attempt(ids.a!, 2, 3),
      attempt(ids.b!, 1, 3),
      attempt(ids.a!, 3, 5, { outcome: 'delivered', statusCode: 204 }),
    ]);
    const seen = (list: { eventId: string; attemptNo: number }[]) => list.map((x) => `${x.eventId === ids.a ? 'a' : 'b'}${x.attemptNo}`);
    assert.deepEqual(seen(await listDeliveryAttempts(db)), ['a3', 'b1', 'a2', 'a1']);
    assert.deepEqual(seen(await listDeliveryAttempts(db, { partnerId: 'ptn_b' })), ['b1']);
    assert.deepEqual(seen(await listDeliveryAttempts(db, { eventId: ids.a, limit: 2 })), ['a3', 'a2']);
    await insertDeliveryAttempts(
      db,
      Array.from({ length: 600 }, (_, i) => attempt(ids.b!, 10 + i, 0)),
    );
    assert.equal((await listDeliveryAttempts(db)).length, 100);
    assert.equal((await listDeliveryAttempts(db, { partnerId: 'ptn_b', limit: 1000 })).length, 601);
  });
});
