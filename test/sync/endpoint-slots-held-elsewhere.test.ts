import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { it } from 'node:test';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { describeEachStore } from '../support/stores.ts';
import { receiverPool } from '../support/receiver-world.ts';
import { seedEndpoint, seedEvent, testClock, testDeps } from '../support/sync-world.ts';

describeEachStore('an endpoint whose request slots another process holds', ({ store }) => {
  const receiver = receiverPool(store, 'ptn_a', 'ptn_b');

  it("keeps nobody else waiting: the run's other endpoints are sent to meanwhile, and its own events go once the slots come free", async () => {
    const db = store().db;
    const tc = testClock();
    const rxA = await receiver();
    const rxB = await receiver();
    await seedEndpoint(db, 'ptn_a', rxA.url);
    await seedEndpoint(db, 'ptn_b', rxB.url);
    const a = (await seedEvent(db, 'ptn_a', { nextAttemptAt: tc.iso() })).eventId;
    const b: string[] = [];
    for (let i = 0; i < 6; i++) b.push((await seedEvent(db, 'ptn_b', { nextAttemptAt: tc.iso() })).eventId);
    // Another deliverer holds both of ptn_a's slots for an hour.
    const until = new Date(tc.clock().getTime() + 3_600_000).toISOString();
    await db
      .insertInto('endpoint_send_slots')
      .values([0, 1].map((slot) => ({ partner_id: 'ptn_a', slot, held_by: `run_other#${slot}`, held_until: until })))
      .execute();

    // One request at a time for the whole run: were ptn_a's lane to keep it while it waits, ptn_b would get nothing.
    const run = deliverDue(db, testDeps(tc, { concurrency: 1, perEndpointConcurrency: 2 }), 'run_1');
    for (const started = Date.now(); rxB.received.length < b.length; await delay(20)) {
      assert.ok(Date.now() - started < 15_000, `ptn_b got ${rxB.received.length} of ${b.length} while ptn_a's slots were held elsewhere`);
    }
    assert.equal(rxA.received.length, 0, 'nothing sent to ptn_a while another process held its slots');
    // The other deliverer ends and gives its slots back.
    await db.updateTable('endpoint_send_slots').set({ held_by: null, held_until: null }).where('partner_id', '=', 'ptn_a').execute();
    const report = await run;

    assert.deepEqual(rxB.received.map((r) => r.eventId).sort(), [...b].sort());
    assert.deepEqual(
      rxA.received.map((r) => r.eventId),
      [a],
    );
    assert.equal(report.totals.delivered, 7);
  });
});
