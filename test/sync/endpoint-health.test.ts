import assert from 'node:assert/strict';
import { it } from 'node:test';
import { registerWebhookEndpoint } from '../../src/services/webhooks/endpoints.ts';
import { listDeadLetters } from '../../src/store/repositories/dead-letters-repo.ts';
import { endpointHealth } from '../../src/store/repositories/operations-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { findEndpointByPartner } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { SECRET, seedEndpoint, seedEvent, T0, testClock, testDeps, type TestClock } from '../support/sync-world.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

describeEachStore('endpoint health: an endpoint failing every attempt for SVC_WEBHOOK_DISABLE_AFTER_DAYS is disabled', ({ store }) => {
  const world = receiverWorld(store);
  const health = async () => (await findEndpointByPartner(store().db, 'ptn_a'))!;
  let runs = 0;
  const run = (tc: TestClock) => deliverDue(store().db, testDeps(tc), `run_${++runs}`);
  /** Moves the clock to T0 + `ms` (never back). */
  const moveTo = (tc: TestClock, ms: number) => tc.advance(Date.parse(T0) + ms - tc.clock().getTime());

  it('failures counted from the first; disabled with reason and time once they span 5 days; its events wait, nothing dead-lettered', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    const tc = testClock();
    world.reply = () => ({ status: 500 });

    await run(tc);
    let e = await health();
    assert.deepEqual(
      [e.status, e.health?.consecutiveFailures, e.health?.failingSince, e.health?.disabledReason],
      ['active', 3, T0, null],
      'three in-run attempts failed; failing since the first',
    );
    assert.deepEqual(await endpointHealth(db), { disabled: 0, failing: 1 });

    // An hour short of five days: still active, the failures add up.
    moveTo(tc, 5 * DAY - HOUR);
    await run(tc);
    e = await health();
    assert.deepEqual([e.status, e.health?.consecutiveFailures, e.health?.failingSince], ['active', 4, T0]);

    moveTo(tc, 5 * DAY + HOUR);
    const second = await seedEvent(db, 'ptn_a', { nextAttemptAt: at(5 * DAY) });
    const report = await run(tc);
    e = await health();
    assert.equal(e.status, 'disabled');
    assert.equal(e.health?.disabledAt, at(5 * DAY + HOUR), 'disabled at the failed attempt that completed the period');
    assert.match(e.health?.disabledReason ?? '', new RegExp(`failed for 5 days \\(\\d+ in a row since ${T0}\\)`));
    assert.equal(report.totals.delivered, 0);
    assert.equal(report.totals.retrying + report.totals.disabled, 2, 'each failed and is due again later, or was not attempted');
    assert.deepEqual(await endpointHealth(db), { disabled: 1, failing: 0 });

    // Later runs send nothing to it and dead-letter nothing: its events wait in the outbox.
    const sent = world.rx.received.length;
    moveTo(tc, 9 * DAY);
    assert.equal((await run(tc)).ended, 0);
    assert.equal(world.rx.received.length, sent);
    for (const id of [eventId, second.eventId]) assert.equal((await findOutboxEvent(db, id))?.status, 'pending');
    assert.deepEqual(await listDeadLetters(db), []);
  });

  it('a delivered attempt in between resets the failures: the period counts from the next failure', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const tc = testClock();
    world.reply = () => ({ status: 503 });
    await seedEvent(db, 'ptn_a');
    await run(tc);

    moveTo(tc, 3 * DAY);
    world.reply = () => ({ status: 204 });
    await seedEvent(db, 'ptn_a', { nextAttemptAt: at(3 * DAY) });
    await run(tc);
    let e = await health();
    assert.deepEqual(
      [e.status, e.health?.consecutiveFailures, e.health?.failingSince, e.health?.lastSuccessAt],
      ['active', 0, null, at(3 * DAY)],
    );
    assert.deepEqual(await endpointHealth(db), { disabled: 0, failing: 0 });

    moveTo(tc, 4 * DAY);
    world.reply = () => ({ status: 503 });
    await seedEvent(db, 'ptn_a', { nextAttemptAt: at(4 * DAY) });
    await run(tc);

    // Six days after the first failure, but only two after the last success: still active.
    moveTo(tc, 6 * DAY);
    await seedEvent(db, 'ptn_a', { nextAttemptAt: at(6 * DAY) });
    await run(tc);
    e = await health();
    assert.deepEqual([e.status, e.health?.failingSince, e.health?.lastSuccessAt], ['active', at(4 * DAY), at(3 * DAY)]);

    moveTo(tc, 9 * DAY + HOUR);
    await seedEvent(db, 'ptn_a', { nextAttemptAt: at(9 * DAY) });
    await run(tc);
    assert.equal((await health()).status, 'disabled', 'five days of failures since the one after the success');
  });

  it('an event suppressed when due is not an attempt: the health stays as it was', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    await seedEvent(db, 'ptn_a', { eventType: 'crew.profile.updated' });
    const report = await run(testClock());
    assert.equal(report.totals.suppressed, 1, 'the endpoint does not subscribe to the type');
    const e = await health();
    assert.deepEqual(e.health, { consecutiveFailures: 0, failingSince: null, lastSuccessAt: null, disabledReason: null, disabledAt: null });
  });

  it('re-enabling (register-webhook --status active) clears the reason and failures; the next run delivers what waited', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await seedEvent(db, 'ptn_a')).eventId);
    const tc = testClock();
    world.reply = () => ({ status: 500 });
    await run(tc);
    moveTo(tc, 5 * DAY + HOUR);
    await run(tc);
    assert.equal((await health()).status, 'disabled');

    world.reply = () => ({ status: 204 });
    moveTo(tc, 6 * DAY);
    const { endpoint } = await registerWebhookEndpoint(
      db,
      'ptn_a',
      {
        url: world.rx.url,
        subscribed_events: ['crew.status.changed'],
        secret: SECRET,
        status: 'active',
      },
      { clock: tc.clock, allowInsecure: true, resolve: async () => ['127.0.0.1'] },
    );
    assert.equal(endpoint.status, 'active');
    assert.deepEqual(endpoint.health, {
      consecutiveFailures: 0,
      failingSince: null,
      lastSuccessAt: null,
      disabledReason: null,
      disabledAt: null,
    });
    const report = await run(tc);
    assert.equal(report.totals.delivered, 3);
    for (const id of ids) assert.equal((await findOutboxEvent(db, id))?.status, 'delivered');
    assert.equal((await health()).health?.lastSuccessAt, at(6 * DAY));
    assert.deepEqual(await listDeadLetters(db), []);
  });

  it('two deliverers at once: once one disables the endpoint, no attempt starts; the reason counts what the counter holds', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', 'http://127.0.0.1:9/hook');
    await db
      .updateTable('webhook_endpoints')
      .set({ failing_since: T0, consecutive_failures: 6 })
      .where('partner_id', '=', 'ptn_a')
      .execute();
    for (let i = 0; i < 20; i++) await seedEvent(db, 'ptn_a', { nextAttemptAt: at(5 * DAY) });
    const tc = testClock();
    moveTo(tc, 5 * DAY + HOUR);
    let calls = 0;
    let afterDisabled = 0;
    const fetch = (async () => {
      calls += 1;
      if ((await health()).status === 'disabled') afterDisabled += 1;
      return new Response('down', { status: 500 });
    }) as typeof globalThis.fetch;
    // The breaker is set out of reach: only the disabling may stop the runs.
    const deps = () => testDeps(tc, { fetch, breakerFailures: 1000 });
    await Promise.all([deliverDue(db, deps(), 'run_sync'), deliverDue(db, deps(), 'run_deliver_only')]);
    const e = await health();
    assert.equal(e.status, 'disabled');
    // Attempts judged before the disabling committed may still reach the receiver: at most the
    // endpoint's slots (2, over both deliverers) at once.
    assert.ok(afterDisabled <= 2, `${afterDisabled} requests reached the receiver after the endpoint was disabled`);
    const counted = Number(/\((\d+) in a row/.exec(e.health?.disabledReason ?? '')?.[1]);
    assert.equal(counted, e.health?.consecutiveFailures, `the reason (${e.health?.disabledReason}) agrees with the counter`);
    const stored = await db
      .selectFrom('delivery_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), calls, 'every request is stored as an attempt of its event');
  });
});
