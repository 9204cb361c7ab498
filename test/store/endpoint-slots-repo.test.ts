import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  ensureSendSlots,
  extendSendSlot,
  releaseSendSlots,
  releaseSendSlotsOf,
  takeSendSlot,
} from '../../src/store/repositories/endpoint-slots-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { resetDelivery } from '../support/sync-world.ts';

const T0 = '2026-11-25T10:00:00.000Z';
const T1 = '2026-11-25T10:00:30.000Z';
const LATER = '2026-11-25T10:01:00.000Z';

describeEachStore("an endpoint's request slots across processes", ({ store }) => {
  const take = (holder: string, now = T0, until = T1, count = 2) =>
    takeSendSlot(store().db, { partnerId: 'ptn_a', count, holder, now, until });

  it('hands out each slot once until it is given back, and no more than the count asked for', async () => {
    await resetDelivery(store().db);
    await ensureSendSlots(store().db, 'ptn_a', 3);
    await ensureSendSlots(store().db, 'ptn_a', 3); // made once: a second lane's call changes nothing
    assert.deepEqual([await take('run_a#0'), await take('run_b#0'), await take('run_c#0')], [0, 1, null]);
    assert.equal(await take('run_c#1', T0, T1, 3), 2, 'a process allowed three finds the third');
    await releaseSendSlots(store().db, 'ptn_a', ['run_b#0', 'run_nobody#0']);
    assert.equal(await take('run_c#2'), 1, 'the slot given back is free again');
    assert.equal(await take('run_c#3'), null);
  });

  it('a hold that lapsed (its process died) is taken by another, and its holder can then neither extend nor give it back', async () => {
    await resetDelivery(store().db);
    await ensureSendSlots(store().db, 'ptn_a', 1);
    assert.equal(await take('run_dead#0', T0, T1, 1), 0);
    assert.equal(await take('run_b#0', T0, T1, 1), null, 'held until T1');
    assert.equal(await take('run_b#1', LATER, '2026-11-25T10:01:30.000Z', 1), 0, 'lapsed at T1: free');
    assert.equal(await extendSendSlot(store().db, 'ptn_a', 0, 'run_dead#0', '2026-11-25T11:00:00.000Z'), false);
    await releaseSendSlots(store().db, 'ptn_a', ['run_dead#0']);
    assert.equal(await take('run_c#0', LATER, T1, 1), null, "run_b's hold stands");
    assert.equal(await extendSendSlot(store().db, 'ptn_a', 0, 'run_b#1', '2026-11-25T11:00:00.000Z'), true);
    assert.equal(await take('run_c#1', '2026-11-25T10:30:00.000Z', T1, 1), null, 'extended to 11:00');
  });

  it('a run whose lease is taken over has its holds given back, and only its own', async () => {
    await resetDelivery(store().db);
    await ensureSendSlots(store().db, 'ptn_a', 2);
    await take('run_gone#0');
    await take('run_gone_too#0'); // another run whose id starts the same way
    assert.equal(await releaseSendSlotsOf(store().db, 'run_gone'), 1);
    assert.equal(await take('run_b#0'), 0, "run_gone's slot is free");
    assert.equal(await take('run_b#1'), null, "run_gone_too's is not");
  });
});
