import assert from 'node:assert/strict';
import { it } from 'node:test';
import { listDeadLetters } from '../../src/store/repositories/dead-letters-repo.ts';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { emptyTally, TALLY_OF, type EventOutcome, type PartnerTally } from '../../src/sync/delivery/outcomes.ts';
import { describeEachStore } from '../support/stores.ts';
import { refusedUrl } from '../support/receiver.ts';
import { receiverPool } from '../support/receiver-world.ts';
import { seedEndpoint, seedEvent, T0, testClock, testDeps } from '../support/sync-world.ts';

const MIN = 60_000;
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

describeEachStore('webhook delivery against a real receiver', ({ store }) => {
  const receiver = receiverPool(store, 'ptn_a', 'ptn_b');

  it('a 2xx delivers the exact stored body once, signed over timestamp.body, with every header', async () => {
    const db = store().db;
    const rx = await receiver();
    await seedEndpoint(db, 'ptn_a', rx.url);
    const { eventId, body } = await seedEvent(db, 'ptn_a');
    const tc = testClock();
    const report = await deliverDue(db, testDeps(tc), 'run_1');
    assert.equal(report.totals.delivered, 1);
    assert.equal(rx.received.length, 1);
    const got = rx.received[0]!;
    assert.equal(got.body, body);
    assert.ok(got.signatureValid, 'signature verifies with the secret, computed by the test');
    assert.equal(got.timestamp, Date.parse(T0) / 1000);
    assert.equal(got.eventId, eventId);
    assert.equal(got.eventType, 'crew.status.changed');
    assert.equal(got.schemaVersion, '1');
    assert.equal(got.contentType, 'application/json');
    const event = await findOutboxEvent(db, eventId);
    assert.deepEqual([event?.status, event?.attempts, event?.deliveredAt, event?.lockedBy], ['delivered', 1, T0, null]);
    const [attempt] = await listDeliveryAttempts(db, { eventId });
    assert.deepEqual([attempt?.attemptNo, attempt?.statusCode, attempt?.outcome, attempt?.url], [1, 204, 'delivered', rx.url]);
    assert.equal((await deliverDue(db, testDeps(tc), 'run_2')).due, 0, 'a delivered event is not sent again');
  });

  for (const status of [500, 503, 408]) {
    it(`HTTP ${status} is retried: three attempts in the run (~2 s, ~8 s apart), each re-signed, then the next due in 5 min`, async () => {
      const db = store().db;
      const rx = await receiver(() => ({ status, body: 'x'.repeat(5000) }));
      await seedEndpoint(db, 'ptn_a', rx.url);
      const { eventId } = await seedEvent(db, 'ptn_a');
      const tc = testClock();
      const deps = testDeps(tc);
      const report = await deliverDue(db, deps, 'run_1');
      assert.equal(report.totals.retrying, 1);
      assert.deepEqual(deps.sleeps, [2000, 8000]);
      assert.equal(rx.received.length, 3);
      assert.ok(rx.received.every((r) => r.signatureValid && r.eventId === eventId));
      assert.deepEqual(
        rx.received.map((r) => r.timestamp - Date.parse(T0) / 1000),
        [0, 2, 10],
        'fresh timestamp per attempt',
      );
      const event = await findOutboxEvent(db, eventId);
      assert.deepEqual([event?.status, event?.attempts, event?.nextAttemptAt, event?.lockedBy], ['pending', 3, at(10_000 + 5 * MIN), null]);
      const attempts = await listDeliveryAttempts(db, { eventId });
      assert.deepEqual(attempts.map((a) => [a.attemptNo, a.statusCode, a.outcome]).reverse(), [
        [1, status, 'retry'],
        [2, status, 'retry'],
        [3, status, 'retry'],
      ]);
      assert.equal(attempts[0]!.responseBody!.length, 2048, 'the first 2 KiB of the answer is kept');
    });
  }

  it('a 429 Retry-After lengthens the in-run wait, never shortens it', async () => {
    const db = store().db;
    const rx = await receiver(() => ({ status: 429, headers: { 'Retry-After': '5' } }));
    await seedEndpoint(db, 'ptn_a', rx.url);
    await seedEvent(db, 'ptn_a');
    const deps = testDeps(testClock());
    await deliverDue(db, deps, 'run_1');
    assert.deepEqual(deps.sleeps, [5000, 8000]);
    assert.equal(rx.received.length, 3);
  });

  it('a Retry-After longer than a run should wait moves the next attempt to a later run; over 1 h counts as 1 h', async () => {
    const db = store().db;
    let retryAfter = '120';
    const rx = await receiver(() => ({ status: 429, headers: { 'Retry-After': retryAfter } }));
    await seedEndpoint(db, 'ptn_a', rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    const tc = testClock();
    const deps = testDeps(tc);
    await deliverDue(db, deps, 'run_1');
    assert.equal(rx.received.length, 1);
    assert.deepEqual(deps.sleeps, []);
    assert.equal((await findOutboxEvent(db, eventId))?.nextAttemptAt, at(120_000));
    tc.advance(120_000);
    retryAfter = '86400';
    await deliverDue(db, deps, 'run_2');
    assert.equal(rx.received.length, 2);
    assert.equal((await findOutboxEvent(db, eventId))?.nextAttemptAt, at(120_000 + 60 * MIN));
  });

  it('a timeout is retried and recorded as one', async () => {
    const db = store().db;
    const rx = await receiver(() => ({ hang: true }));
    await seedEndpoint(db, 'ptn_a', rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    await deliverDue(db, testDeps(testClock(), { timeoutMs: 150 }), 'run_1');
    assert.equal(rx.received.length, 3);
    const attempts = await listDeliveryAttempts(db, { eventId });
    assert.ok(
      attempts.every((a) => a.outcome === 'retry' && a.statusCode === null && a.error === 'timeout after 150 ms'),
      JSON.stringify(attempts),
    );
  });

  it('connection refused is retried', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', await refusedUrl());
    const { eventId } = await seedEvent(db, 'ptn_a');
    const report = await deliverDue(db, testDeps(testClock()), 'run_1');
    assert.equal(report.totals.retrying, 1);
    const attempts = await listDeliveryAttempts(db, { eventId });
    assert.equal(attempts.length, 3);
    assert.ok(
      attempts.every((a) => a.statusCode === null && /ECONNREFUSED/.test(a.error ?? '')),
      JSON.stringify(attempts),
    );
  });

  it('a redirect is not followed and counts as a failure', async () => {
    const db = store().db;
    const elsewhere = await receiver();
    const rx = await receiver(() => ({ status: 302, headers: { Location: elsewhere.url } }));
    await seedEndpoint(db, 'ptn_a', rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    await deliverDue(db, testDeps(testClock()), 'run_1');
    assert.equal(elsewhere.received.length, 0);
    assert.deepEqual(
      (await listDeliveryAttempts(db, { eventId })).map((a) => [a.statusCode, a.outcome]),
      [
        [302, 'retry'],
        [302, 'retry'],
        [302, 'retry'],
      ],
    );
  });

  for (const status of [400, 401, 404, 410, 422]) {
    it(`HTTP ${status} is permanent: one attempt, dead-lettered at once`, async () => {
      const db = store().db;
      const rx = await receiver(() => ({ status, body: 'no such hook' }));
      await seedEndpoint(db, 'ptn_a', rx.url);
      const { eventId } = await seedEvent(db, 'ptn_a');
      const deps = testDeps(testClock());
      const report = await deliverDue(db, deps, 'run_1');
      assert.equal(report.totals.deadLettered, 1);
      assert.equal(rx.received.length, 1);
      assert.deepEqual(deps.sleeps, []);
      assert.equal((await findOutboxEvent(db, eventId))?.status, 'dead');
      const [attempt] = await listDeliveryAttempts(db, { eventId });
      assert.deepEqual([attempt?.outcome, attempt?.responseBody], ['failed_permanent', 'no such hook']);
      const [letter] = await listDeadLetters(db, { partnerId: 'ptn_a' });
      assert.deepEqual(
        [letter?.eventId, letter?.reason, letter?.deadAt, letter?.replayedAt],
        [eventId, `permanent failure: HTTP ${status}`, T0, null],
      );
    });
  }

  it('one partner failing does not change what another receives', async () => {
    const db = store().db;
    const bad = await receiver(() => ({ status: 500 }));
    const good = await receiver();
    await seedEndpoint(db, 'ptn_a', bad.url);
    await seedEndpoint(db, 'ptn_b', good.url);
    for (let i = 0; i < 3; i++) {
      await seedEvent(db, 'ptn_a');
      await seedEvent(db, 'ptn_b');
    }
    const report = await deliverDue(db, testDeps(testClock()), 'run_1');
    assert.deepEqual(report.perPartner.get('ptn_b'), { ...emptyTally(), delivered: 3 });
    assert.equal(report.perPartner.get('ptn_a')?.retrying, 3);
    assert.equal(good.received.length, 3);
  });

  it('the report counts what each event ended with, per partner and in all, without keeping the events', async () => {
    const db = store().db;
    const ok = await receiver();
    // ptn_b's events are answered by their id: 422 (dead at once) or 503 (retried).
    const mixed = await receiver((r) => ({ status: r.eventId.startsWith('evt_gone') ? 422 : 503 }));
    await seedEndpoint(db, 'ptn_a', ok.url);
    await seedEndpoint(db, 'ptn_b', mixed.url);
    for (let i = 0; i < 4; i++) {
      await seedEvent(db, 'ptn_a');
      await seedEvent(db, 'ptn_b', { eventId: `evt_${i % 2 ? 'gone' : 'busy'}_${i}` });
    }
    const deps = testDeps(testClock(), { breakerFailures: Infinity });
    const report = await deliverDue(db, deps, 'run_1');
    assert.equal(report.ended, 8);
    assert.equal(deps.ended.length, 8, 'each event reported once, as it ended');
    const counted = new Map<string, PartnerTally>();
    const totals = emptyTally();
    for (const e of deps.ended) {
      assert.notEqual(e.outcome, 'not_started');
      const key = TALLY_OF[e.outcome as Exclude<EventOutcome, 'not_started'>];
      const tally = counted.get(e.partnerId) ?? emptyTally();
      tally[key] += 1;
      totals[key] += 1;
      counted.set(e.partnerId, tally);
    }
    assert.deepEqual(report.perPartner, counted);
    assert.deepEqual(report.totals, totals);
    assert.deepEqual([totals.delivered, totals.retrying, totals.deadLettered], [4, 2, 2]);
    assert.equal('events' in report, false, 'no per-event list in the report');
  });

  it('a host resolving to a non-public address is refused at delivery: nothing sent, dead-lettered at once', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', 'https://hooks.partner.example/svc');
    const { eventId } = await seedEvent(db, 'ptn_a');
    const fetch = (async () => assert.fail('nothing may be sent')) as typeof globalThis.fetch;
    const deps = testDeps(testClock(), { allowInsecure: false, resolve: async () => ['93.184.216.34', '10.0.0.7'], fetch });
    const report = await deliverDue(db, deps, 'run_1');
    assert.equal(report.totals.deadLettered, 1);
    const [attempt] = await listDeliveryAttempts(db, { eventId });
    assert.deepEqual(
      [attempt?.outcome, attempt?.statusCode, attempt?.error],
      ['failed_permanent', null, 'destination refused: url host hooks.partner.example resolves to 10.0.0.7, a private address'],
    );
  });

  it('a public destination is posted to once resolved: POST, redirects not followed', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', 'https://hooks.partner.example/svc');
    const { body } = await seedEvent(db, 'ptn_a');
    const calls: [string, RequestInit][] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return new Response('ok', { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const deps = testDeps(testClock(), { allowInsecure: false, resolve: async () => ['93.184.216.34'], fetch });
    assert.equal((await deliverDue(db, deps, 'run_1')).totals.delivered, 1);
    assert.equal(calls.length, 1);
    const [url, init] = calls[0]!;
    assert.deepEqual([url, init.method, init.redirect, init.body], ['https://hooks.partner.example/svc', 'POST', 'manual', body]);
  });

  it('a pending event goes to the endpoint as it is at delivery: a rotated URL and secret apply', async () => {
    const db = store().db;
    const old = await receiver();
    await seedEndpoint(db, 'ptn_a', old.url, 'whsec_old-secret-not-used-any-more-0000');
    await seedEvent(db, 'ptn_a');
    const rx = await receiver();
    await db.updateTable('webhook_endpoints').set({ url: rx.url, secret: 'whsec_test-secret-for-the-receiver-0123456789' }).execute();
    await deliverDue(db, testDeps(testClock()), 'run_1');
    assert.equal(old.received.length, 0);
    assert.deepEqual(
      rx.received.map((r) => r.signatureValid),
      [true],
    );
  });
});
