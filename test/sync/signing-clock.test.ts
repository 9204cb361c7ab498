import assert from 'node:assert/strict';
import { it } from 'node:test';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { cli } from '../support/cli.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent, T0, testClock, testDeps } from '../support/sync-world.ts';

const LATER = '2027-06-01T08:00:00.000Z';

/*
 * A receiver refuses a signature whose timestamp is far from its own clock. SVC_NOW moves the
 * business clock (events, attempts, retries); the signature must still carry the real time.
 */
describeEachStore('the signature timestamp is the real time, whatever the business clock says', ({ store, url }) => {
  const world = receiverWorld(store);

  it('delivery signs with the wall clock and records the attempt on the business clock', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    const business = testClock(LATER);
    await deliverDue(db, testDeps(business, { wallClock: () => new Date(T0) }), 'run_1');
    const [got] = world.rx.received;
    assert.equal(got?.timestamp, Date.parse(T0) / 1000, 'X-Service-Timestamp: the wall clock');
    assert.equal(got?.signatureValid, true, 'signed over that timestamp');
    assert.equal((await findOutboxEvent(db, eventId))?.deliveredAt, LATER);
    assert.deepEqual(
      (await listDeliveryAttempts(db, { eventId })).map((a) => a.attemptedAt),
      [LATER],
    );
  });

  it('svc sync under SVC_NOW: the receiver gets the real time in the signature', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    // The CLI's injected clock is the real one; SVC_NOW starts the business clock seven months on.
    const res = await cli(
      ['--db', url(), 'sync', '--deliver-only'],
      { SVC_NOW: LATER, SVC_NOW_ALLOW_WRITES: '1', SVC_ALLOW_INSECURE_WEBHOOKS: '1' },
      T0,
    );
    assert.equal(res.code, 0, res.stderr);
    const [got] = world.rx.received;
    assert.equal(got?.timestamp, Date.parse(T0) / 1000);
    assert.equal(got?.signatureValid, true);
    assert.deepEqual(
      (await listDeliveryAttempts(db, { eventId })).map((a) => a.attemptedAt),
      [LATER],
    );
  });
});
