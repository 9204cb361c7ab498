import assert from 'node:assert/strict';
import { it } from 'node:test';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { describeEachStore } from '../support/stores.ts';
import { receiverPool } from '../support/receiver-world.ts';
import { insertOutboxRows, seedEndpoint, seedEvent, T0, testClock, testDeps } from '../support/sync-world.ts';

const BUDGET_MS = 60_000;
const BACKLOG = 200;
/** Requests to the backlogged endpoint after which each budgeted run's clock passes its budget. */
const PER_RUN = 20;

const ids = (n: number, partnerId: string) => Array.from({ length: n }, (_, i) => `evt_backlog_${String(i).padStart(4, '0')}_${partnerId}`);

describeEachStore('a burst larger than one run', ({ store }) => {
  const receiver = receiverPool(store, 'ptn_a', 'ptn_b');

  it("waits for the next runs without starving anyone: a partner's new events go out beside another's backlog, which goes on oldest first, each event once", async () => {
    const db = store().db;
    const tc = testClock();
    // Each budgeted run passes its budget at its PER_RUN-th request to ptn_a; attempts in flight finish.
    let spendAt = PER_RUN;
    let bAll: () => void = () => {};
    const bDone = new Promise<void>((resolve) => (bAll = resolve));
    let holdA = false;
    const rxA = await receiver((_, n) => {
      if (n === spendAt) tc.advance(BUDGET_MS);
      // In the second run ptn_a's answers wait for ptn_b's events: were ptn_b's lane kept behind
      // the backlog, these would time out and the run would record failures.
      return { status: 204, until: holdA ? bDone : undefined };
    });
    let bReceived = 0;
    const rxB = await receiver(() => {
      if (++bReceived === 5) bAll();
      return { status: 204 };
    });
    await seedEndpoint(db, 'ptn_a', rxA.url);
    await seedEndpoint(db, 'ptn_b', rxB.url);
    const backlog = ids(BACKLOG, 'ptn_a');
    const { body } = await seedEvent(db, 'ptn_a', { eventId: 'evt_template' });
    await db.deleteFrom('outbox_events').execute();
    await insertOutboxRows(
      db,
      backlog.map((eventId) => ({
        event_id: eventId,
        partner_id: 'ptn_a',
        event_type: 'crew.status.changed',
        crew_unique_id: 'crew_1',
        occurred_at: T0,
        body: body.replace('evt_template', eventId),
        status: 'pending',
        attempts: 0,
        next_attempt_at: T0,
        locked_by: null,
        locked_until: null,
        created_at: T0,
        delivered_at: null,
      })),
    );
    const deps = () => testDeps(tc, { budgetMs: BUDGET_MS });
    const deliveredOf = async (partnerId: string) =>
      (
        await db
          .selectFrom('outbox_events')
          .select('event_id')
          .where('partner_id', '=', partnerId)
          .where('status', '=', 'delivered')
          .orderBy('event_id')
          .execute()
      ).map((r) => r.event_id);

    const first = await deliverDue(db, deps(), 'run_1');
    assert.equal(first.budgetSpent, true);
    const afterFirst = await deliveredOf('ptn_a');
    assert.ok(afterFirst.length >= PER_RUN && afterFirst.length < BACKLOG, `${afterFirst.length} of the backlog in the first run`);
    assert.deepEqual(afterFirst, backlog.slice(0, afterFirst.length), 'the oldest first');

    // Newer than the whole backlog: a queue served oldest first across partners would keep them waiting.
    const newer: string[] = [];
    for (let i = 0; i < 5; i++) newer.push((await seedEvent(db, 'ptn_b', { nextAttemptAt: tc.iso() })).eventId);
    holdA = true;
    spendAt = rxA.received.length + PER_RUN;
    const second = await deliverDue(db, deps(), 'run_2');
    assert.equal(second.budgetSpent, true);
    assert.equal(second.totals.retrying + second.totals.failed, 0, 'nothing timed out waiting for the other lane');
    assert.deepEqual((await deliveredOf('ptn_b')).sort(), newer.sort(), "ptn_b's events all went out in the next run");
    const afterSecond = await deliveredOf('ptn_a');
    assert.ok(afterSecond.length > afterFirst.length && afterSecond.length < BACKLOG, `${afterSecond.length} after the second run`);
    assert.deepEqual(afterSecond, backlog.slice(0, afterSecond.length), 'the backlog went on where it stopped');

    holdA = false;
    spendAt = Infinity;
    const third = await deliverDue(db, deps(), 'run_3');
    assert.equal(third.budgetSpent, false);
    assert.deepEqual(await deliveredOf('ptn_a'), backlog, 'the rest of the backlog in the third run');
    const sent = [...rxA.received, ...rxB.received].map((r) => r.eventId);
    assert.equal(new Set(sent).size, sent.length, 'no event sent twice');
    assert.equal(sent.length, BACKLOG + 5);
    const held = await db.selectFrom('outbox_events').select('event_id').where('locked_by', 'is not', null).execute();
    assert.deepEqual(held, [], 'no claim left behind');
  });
});
