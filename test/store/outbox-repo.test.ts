import assert from 'node:assert/strict';
import { before, beforeEach, it } from 'node:test';
import {
  claimDueEvents,
  countDueEvents,
  countHeldEvents,
  findOutboxEvent,
  listDueEvents,
  releaseClaimsOf,
  releaseEvents,
  renewClaim,
  requeueDeadEvents,
  updateClaimedEvents,
} from '../../src/store/repositories/outbox-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { resetDelivery, seedEndpoint, seedEvent, seedPartners, T0 } from '../support/sync-world.ts';

const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;
const URL_A = 'https://hooks.example.com/a';

describeEachStore('the outbox in the store', ({ store }) => {
  before(async () => seedPartners(store().db, 'ptn_a', 'ptn_b', 'ptn_c'));
  beforeEach(async () => resetDelivery(store().db));
  const claim = (runId: string, now = at(0), limit = 10) =>
    claimDueEvents(store().db, { partnerId: 'ptn_a', runId, now, lockedUntil: at(30), limit });

  it('due events: pending, due, unclaimed or lapsed, with an active endpoint; oldest due first, a keyset page at a time', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', URL_A);
    await seedEndpoint(db, 'ptn_b', 'https://hooks.example.com/b');
    await db.updateTable('webhook_endpoints').set({ status: 'disabled' }).where('partner_id', '=', 'ptn_b').execute();
    const e1 = (await seedEvent(db, 'ptn_a', { eventId: 'evt_1', nextAttemptAt: at(1) })).eventId;
    const e2 = (await seedEvent(db, 'ptn_a', { eventId: 'evt_2', nextAttemptAt: at(1) })).eventId;
    const e3 = (await seedEvent(db, 'ptn_a', { eventId: 'evt_3', nextAttemptAt: at(2) })).eventId;
    await seedEvent(db, 'ptn_a', { eventId: 'evt_later', nextAttemptAt: at(20) });
    await seedEvent(db, 'ptn_b', { eventId: 'evt_disabled', nextAttemptAt: at(1) });
    await seedEvent(db, 'ptn_c', { eventId: 'evt_no_endpoint', nextAttemptAt: at(1) });

    const page1 = await listDueEvents(db, at(5), 2);
    assert.deepEqual(page1, [
      {
        eventId: e1,
        partnerId: 'ptn_a',
        eventType: 'crew.status.changed',
        attempts: 0,
        nextAttemptAt: at(1),
        endpointId: 'whe_ptn_a',
        url: URL_A,
      },
      {
        eventId: e2,
        partnerId: 'ptn_a',
        eventType: 'crew.status.changed',
        attempts: 0,
        nextAttemptAt: at(1),
        endpointId: 'whe_ptn_a',
        url: URL_A,
      },
    ]);
    assert.deepEqual(
      (await listDueEvents(db, at(5), 2, page1[1])).map((e) => e.eventId),
      [e3],
    );
    assert.deepEqual(await listDueEvents(db, at(5), 2, { nextAttemptAt: at(2), eventId: e3 }), []);
    assert.equal(await countDueEvents(db, at(5)), 3);
    assert.deepEqual(
      [...(await countHeldEvents(db)).entries()].sort(),
      [
        ['ptn_b', 1],
        ['ptn_c', 1],
      ],
      'kept for partners without an active endpoint',
    );

    await claim('run_x', at(5));
    assert.deepEqual(await listDueEvents(db, at(5), 10), [], 'claimed: not due for others');
    assert.equal(await countDueEvents(db, at(5)), 0);
    assert.equal((await listDueEvents(db, at(30), 10)).length, 4, 'a lapsed claim is due again (evt_later too by then)');
  });

  it('progress is recorded only while the run holds the claim; the ids updated come back', async () => {
    const db = store().db;
    for (const id of ['evt_d', 'evt_p', 'evt_x']) await seedEvent(db, 'ptn_a', { eventId: id });
    await claim('run_1');
    const held = await updateClaimedEvents(db, [
      { eventId: 'evt_d', runId: 'run_1', progress: { status: 'delivered', attempts: 1, at: at(2) } },
      { eventId: 'evt_p', runId: 'run_1', progress: { status: 'pending', attempts: 2, nextAttemptAt: at(9) } },
      { eventId: 'evt_x', runId: 'run_1', progress: { status: 'dead', attempts: 3 } },
      { eventId: 'evt_p', runId: 'run_other', progress: { status: 'dead', attempts: 9 } },
    ]);
    assert.deepEqual([...held].sort(), ['evt_d', 'evt_p', 'evt_x']);
    const state = async (id: string) => {
      const e = (await findOutboxEvent(db, id))!;
      return [e.status, e.attempts, e.deliveredAt, e.nextAttemptAt, e.lockedBy];
    };
    assert.deepEqual(await state('evt_d'), ['delivered', 1, at(2), T0, null]);
    assert.deepEqual(await state('evt_p'), ['pending', 2, null, at(9), 'run_1'], 'still claimed: the run may attempt it again');
    assert.deepEqual(await state('evt_x'), ['dead', 3, null, T0, null]);
    assert.deepEqual([...(await updateClaimedEvents(db, []))], []);
    assert.equal(await findOutboxEvent(db, 'evt_absent'), undefined);
  });

  it('200+ events of one kind in one call: each gets its own values', async () => {
    const db = store().db;
    const ids: string[] = [];
    for (let i = 0; i < 230; i++) ids.push((await seedEvent(db, 'ptn_a', { eventId: `evt_many_${String(i).padStart(3, '0')}` })).eventId);
    assert.equal((await claim('run_1', at(0), 500)).length, 230);
    const held = await updateClaimedEvents(
      db,
      ids.map((eventId, i) => ({
        eventId,
        runId: 'run_1',
        progress: { status: 'pending' as const, attempts: i, nextAttemptAt: at(i % 60) },
      })),
    );
    assert.equal(held.size, 230);
    for (const i of [0, 199, 200, 229]) {
      const e = (await findOutboxEvent(db, ids[i]!))!;
      assert.deepEqual([e.attempts, e.nextAttemptAt], [i, at(i % 60)]);
    }
  });

  it('renewing, releasing and requeueing claims', async () => {
    const db = store().db;
    for (const id of ['evt_1', 'evt_2', 'evt_3']) await seedEvent(db, 'ptn_a', { eventId: id });
    await claim('run_1');
    assert.equal(await renewClaim(db, 'evt_1', 'run_1', at(50)), true);
    assert.equal((await findOutboxEvent(db, 'evt_1'))?.lockedUntil, at(50));
    assert.equal(await renewClaim(db, 'evt_1', 'run_2', at(55)), false, 'not the holder');
    await releaseEvents(db, ['evt_1'], 'run_2');
    assert.equal((await findOutboxEvent(db, 'evt_1'))?.lockedBy, 'run_1', 'only the holder releases');
    await releaseEvents(db, ['evt_1'], 'run_1');
    assert.deepEqual([(await findOutboxEvent(db, 'evt_1'))?.lockedBy, (await findOutboxEvent(db, 'evt_1'))?.lockedUntil], [null, null]);
    assert.equal(await renewClaim(db, 'evt_1', 'run_1', at(50)), false, 'released: gone');
    assert.equal(await releaseClaimsOf(db, 'run_1'), 2);
    assert.equal(await releaseClaimsOf(db, 'run_1'), 0);

    await claim('run_3');
    await updateClaimedEvents(db, [
      { eventId: 'evt_1', runId: 'run_3', progress: { status: 'dead', attempts: 7 } },
      { eventId: 'evt_2', runId: 'run_3', progress: { status: 'delivered', attempts: 1, at: at(1) } },
    ]);
    assert.equal(await renewClaim(db, 'evt_1', 'run_3', at(50)), false, 'no claim on an event that is no longer pending');
    assert.equal(await requeueDeadEvents(db, ['evt_1', 'evt_2', 'evt_3', 'evt_absent'], at(40)), 1, 'only dead events');
    const e1 = (await findOutboxEvent(db, 'evt_1'))!;
    assert.deepEqual([e1.status, e1.attempts, e1.nextAttemptAt, e1.lockedBy], ['pending', 0, at(40), null]);
    assert.equal((await findOutboxEvent(db, 'evt_2'))?.status, 'delivered');
  });
});
