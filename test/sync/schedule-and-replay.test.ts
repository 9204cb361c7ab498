import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { findDeadLetters, replayDeadLetters } from '../../src/services/dead-letters.ts';
import { listDeadLetters } from '../../src/store/repositories/dead-letters-repo.ts';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { resetDelivery, SECRET, seedEndpoint, seedEvent, seedPartners, T0, testClock, testDeps } from '../support/sync-world.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describeEachStore('the persisted retry schedule, dead letters and replay', ({ store }) => {
  let status = 500;
  let rx: Receiver;
  before(async () => {
    await seedPartners(store().db, 'ptn_a', 'ptn_b');
    rx = await startReceiver(SECRET, () => ({ status }));
  });
  beforeEach(async () => {
    await resetDelivery(store().db);
    rx.received.length = 0;
    status = 500;
  });
  after(async () => rx.close());

  it('attempts 4-8 wait 5 min, 30 min, 2 h, 5 h, 10 h after the previous one; the 8th failure dead-letters', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    const tc = testClock();
    const deps = testDeps(tc);
    await deliverDue(db, deps, 'run_1');
    assert.equal(rx.received.length, 3);
    for (const [n, wait] of [
      [4, 5 * MIN],
      [5, 30 * MIN],
      [6, 2 * HOUR],
      [7, 5 * HOUR],
      [8, 10 * HOUR],
    ] as const) {
      const before = await findOutboxEvent(db, eventId);
      const lastAttempt = Date.parse((await listDeliveryAttempts(db, { eventId, limit: 1 }))[0]!.attemptedAt);
      assert.equal(before?.nextAttemptAt, new Date(lastAttempt + wait).toISOString(), `wait before attempt ${n}`);
      tc.advance(Date.parse(before.nextAttemptAt) - tc.clock().getTime() - 1000);
      assert.equal((await deliverDue(db, deps, `run_early_${n}`)).due, 0, `attempt ${n} is not due a second early`);
      tc.advance(1000);
      const report = await deliverDue(db, deps, `run_${n}`);
      assert.equal(rx.received.length, n, `one attempt in the run at attempt ${n}`);
      assert.equal(report.totals[n === 8 ? 'deadLettered' : 'retrying'], 1);
    }
    const event = await findOutboxEvent(db, eventId);
    assert.deepEqual([event?.status, event?.attempts], ['dead', 8]);
    const attempts = (await listDeliveryAttempts(db, { eventId })).reverse();
    assert.deepEqual(
      attempts.map((a) => a.attemptNo),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.deepEqual(
      attempts.map((a) => a.outcome),
      ['retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'dead'],
    );
    assert.ok(rx.received.every((r) => r.eventId === eventId && r.signatureValid));
    const [letter] = await listDeadLetters(db);
    assert.deepEqual([letter?.eventId, letter?.reason], [eventId, 'gave up after 8 attempts: HTTP 500']);
    tc.advance(24 * HOUR);
    assert.equal((await deliverDue(db, deps, 'run_after')).due, 0, 'a dead event is not attempted again');
  });

  it('replay puts a dead letter back with its event_id and a fresh attempt count; the next run delivers it', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', rx.url);
    status = 422;
    const { eventId, body } = await seedEvent(db, 'ptn_a');
    const tc = testClock();
    await deliverDue(db, testDeps(tc), 'run_1');
    assert.equal((await findOutboxEvent(db, eventId))?.status, 'dead');

    tc.advance(HOUR);
    status = 200;
    const { replayed } = await replayDeadLetters(db, { partnerId: 'ptn_a' }, tc.clock);
    assert.deepEqual(
      replayed.map((d) => [d.eventId, d.replayedAt]),
      [[eventId, tc.iso()]],
    );
    const event = await findOutboxEvent(db, eventId);
    assert.deepEqual([event?.status, event?.attempts, event?.nextAttemptAt], ['pending', 0, tc.iso()]);
    assert.deepEqual(
      await replayDeadLetters(db, { partnerId: 'ptn_a' }, tc.clock),
      { replayed: [], skipped: [] },
      'replaying twice does nothing more',
    );

    const report = await deliverDue(db, testDeps(tc), 'run_2');
    assert.equal(report.totals.delivered, 1);
    const last = rx.received.at(-1)!;
    assert.deepEqual([last.eventId, last.body, last.signatureValid], [eventId, body, true]);
    const history = (await listDeliveryAttempts(db, { eventId })).reverse();
    assert.deepEqual(
      history.map((a) => [a.attemptNo, a.outcome]),
      [
        [1, 'failed_permanent'],
        [1, 'delivered'],
      ],
      'history is kept',
    );
  });

  it('replay filters by partner, event type and dead-letter time, both bounds inclusive', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', rx.url);
    await seedEndpoint(db, 'ptn_b', rx.url);
    status = 404;
    const tc = testClock();
    const a1 = await seedEvent(db, 'ptn_a');
    const b1 = await seedEvent(db, 'ptn_b');
    await deliverDue(db, testDeps(tc), 'run_1');
    tc.advance(HOUR);
    const a2 = await seedEvent(db, 'ptn_a', { nextAttemptAt: tc.iso() });
    await deliverDue(db, testDeps(tc), 'run_2');
    assert.equal((await findDeadLetters(db, {})).length, 3);

    assert.deepEqual(
      (await findDeadLetters(db, { since: tc.iso() })).map((d) => d.eventId),
      [a2.eventId],
    );
    assert.deepEqual(
      (await findDeadLetters(db, { until: T0, partnerId: 'ptn_b' })).map((d) => d.eventId),
      [b1.eventId],
    );
    await assert.rejects(replayDeadLetters(db, { eventType: 'crew.nope' }, tc.clock), { code: 'invalid_input' });
    await assert.rejects(replayDeadLetters(db, { since: 'yesterday' }, tc.clock), { code: 'invalid_input' });

    const { replayed } = await replayDeadLetters(db, { partnerId: 'ptn_a', eventType: 'crew.status.changed', until: T0 }, tc.clock);
    assert.deepEqual(
      replayed.map((d) => d.eventId),
      [a1.eventId],
    );
    assert.equal((await findOutboxEvent(db, a2.eventId))?.status, 'dead');
    assert.equal((await findOutboxEvent(db, b1.eventId))?.status, 'dead');
  });

  it('an event that dies again after a replay is a dead letter again, replayable again', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', rx.url);
    status = 400;
    const tc = testClock();
    const { eventId } = await seedEvent(db, 'ptn_a');
    await deliverDue(db, testDeps(tc), 'run_1');
    await replayDeadLetters(db, {}, tc.clock);
    tc.advance(MIN);
    await deliverDue(db, testDeps(tc), 'run_2');
    const [letter] = await listDeadLetters(db);
    assert.deepEqual([letter?.eventId, letter?.deadAt, letter?.replayedAt], [eventId, tc.iso(), null]);
    assert.equal((await replayDeadLetters(db, {}, tc.clock)).replayed.length, 1);
  });
});
