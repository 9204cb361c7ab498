import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/database.ts';
import { listDeadLetters } from '../../src/store/repositories/dead-letters-repo.ts';
import { listDeliveryAttempts, type DeliveryAttemptView } from '../../src/store/repositories/delivery-repo.ts';
import type { OutboxEvent } from '../../src/domain/webhooks.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { MAX_ATTEMPTS } from '../../src/sync/failure-policy.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent, testClock, testDeps } from '../support/sync-world.ts';
import type { Reply } from '../support/receiver.ts';
import { receiverPool } from '../support/receiver-world.ts';
import { emptyTally } from '../../src/sync/delivery/outcomes.ts';

// Margins an order of magnitude wider than the answers they bound: on a loaded machine a prompt
// answer has taken over 150 ms, so "in time" is a 100 ms answer against a 2 s timeout.
const TIMEOUT_MS = 2_000;
const IN_TIME_MS = 100;
// The later-runs test makes 8 timed-out attempts one after another; its answers are immediate.
const RETRY_TIMEOUT_MS = 1_000;
const MIN = 60_000;

const HANG: Reply = { hang: true };
const RESET_REPLY: Reply = { reset: true };
const RESET = /other side closed|ECONNRESET|socket hang up|terminated/i;

async function attemptsOf(db: Kysely<Database>, eventId: string): Promise<DeliveryAttemptView[]> {
  return (await listDeliveryAttempts(db, { eventId, limit: 100 })).reverse();
}

async function events(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, OutboxEvent>> {
  return new Map(await Promise.all(ids.map(async (id) => [id, (await findOutboxEvent(db, id))!] as const)));
}

describeEachStore('webhook receivers that hang, reset or answer slowly during sync', ({ store }) => {
  const start = receiverPool(store, 'ptn_a', 'ptn_b');
  const receiver = (behave: (eventId: string, nth: number) => Reply) => start((got) => behave(got.eventId, got.nth));

  it('one run: every attempt ends within the timeout and is stored; each event is delivered or retrying with its next attempt set', async () => {
    const db = store().db;
    const plan: Record<string, (nth: number) => Reply> = {
      evt_hang: () => HANG,
      evt_reset: () => RESET_REPLY,
      evt_too_slow: () => ({ status: 204, delayMs: 3 * TIMEOUT_MS }),
      evt_slow_in_time: () => ({ status: 204, delayMs: IN_TIME_MS }),
      evt_stall_body: () => ({ stallBody: true }),
      evt_reset_then_ok: (nth) => (nth === 1 ? RESET_REPLY : { status: 204 }),
      evt_hang_then_ok: (nth) => (nth === 1 ? HANG : { status: 204 }),
    };
    const rx = await receiver((eventId, nth) => plan[eventId]!(nth));
    await seedEndpoint(db, 'ptn_a', rx.url);
    for (const eventId of Object.keys(plan)) await seedEvent(db, 'ptn_a', { eventId });

    // Seven events of one endpoint, most failing: this is about each event's own policy, not the breaker.
    // Every event its own slot: the timeouts run side by side, so the run takes about 3 timeouts, not 8.
    const deps = testDeps(testClock(), {
      timeoutMs: TIMEOUT_MS,
      breakerFailures: Infinity,
      concurrency: 8,
      perEndpointConcurrency: 8,
    });
    const report = await deliverDue(db, deps, 'run_1');

    assert.deepEqual(report.errors, []);
    const expected = {
      evt_hang: ['retry', 3],
      evt_reset: ['retry', 3],
      evt_too_slow: ['retry', 3],
      evt_slow_in_time: ['delivered', 1],
      evt_stall_body: ['delivered', 1],
      evt_reset_then_ok: ['delivered', 2],
      evt_hang_then_ok: ['delivered', 2],
    } as const;
    assert.deepEqual(Object.fromEntries(deps.ended.map((e) => [e.eventId, [e.outcome, e.attempts]])), expected);
    const stored = await events(db, Object.keys(plan));
    for (const [eventId, [outcome, n]] of Object.entries(expected)) {
      const event = stored.get(eventId)!;
      const attempts = await attemptsOf(db, eventId);
      assert.deepEqual(
        attempts.map((a) => a.attemptNo),
        Array.from({ length: n }, (_, i) => i + 1),
        `${eventId}: every attempt stored once`,
      );
      assert.equal(rx.received.filter((a) => a.eventId === eventId).length, n, `${eventId}: the receiver saw each attempt`);
      assert.equal(event.lockedBy, null, `${eventId}: no claim left behind`);
      assert.equal(event.attempts, n);
      if (outcome === 'retry') {
        assert.equal(event.status, 'pending');
        assert.equal(
          Date.parse(event.nextAttemptAt) - Date.parse(attempts.at(-1)!.attemptedAt),
          5 * MIN,
          `${eventId}: next attempt in 5 min`,
        );
        assert.ok(
          attempts.every((a) => a.outcome === 'retry' && a.statusCode === null),
          JSON.stringify(attempts),
        );
      } else {
        assert.equal(event.status, 'delivered');
        assert.equal(attempts.at(-1)!.outcome, 'delivered');
      }
    }
    assert.ok(
      rx.received.every((a) => a.signatureValid),
      'every attempt was signed',
    );
    const errors = async (id: string) => (await attemptsOf(db, id)).map((a) => a.error);
    assert.deepEqual(await errors('evt_hang'), Array(3).fill(`timeout after ${TIMEOUT_MS} ms`));
    assert.deepEqual(await errors('evt_too_slow'), Array(3).fill(`timeout after ${TIMEOUT_MS} ms`));
    assert.ok(
      (await errors('evt_reset')).every((e) => RESET.test(e ?? '')),
      JSON.stringify(await errors('evt_reset')),
    );
    // Headers arrived in time: the receiver took the event, even though its body never ended.
    const [stalled] = await attemptsOf(db, 'evt_stall_body');
    assert.deepEqual([stalled!.statusCode, stalled!.outcome], [200, 'delivered']);
    assert.match(stalled!.error ?? '', new RegExp(`^response body: timeout after ${TIMEOUT_MS} ms$`));
  });

  it('later runs: an event that never gets through is dead-lettered after its 8 attempts; one that recovers is delivered; none is left pending', async () => {
    const db = store().db;
    const plan: Record<string, (nth: number) => Reply> = {
      evt_always_hangs: () => HANG,
      evt_always_resets: () => RESET_REPLY,
      evt_recovers_at_5: (nth) => (nth < 5 ? HANG : { status: 204 }),
    };
    const rx = await receiver((eventId, nth) => plan[eventId]!(nth));
    await seedEndpoint(db, 'ptn_a', rx.url);
    const ids = Object.keys(plan);
    for (const eventId of ids) await seedEvent(db, 'ptn_a', { eventId });
    const tc = testClock();
    const deps = testDeps(tc, { timeoutMs: RETRY_TIMEOUT_MS, breakerFailures: Infinity });

    // Each run is due for at least one event, which gets at least one attempt: the loop ends.
    for (let run = 1; run <= ids.length * MAX_ATTEMPTS; run++) {
      const report = await deliverDue(db, deps, `run_${run}`);
      assert.deepEqual(report.errors, []);
      const pending = [...(await events(db, ids)).values()].filter((e) => e.status === 'pending');
      if (pending.length === 0) break;
      // The next run starts when the earliest retry is due, as cron would find it.
      const next = Math.min(...pending.map((e) => Date.parse(e.nextAttemptAt)));
      tc.advance(Math.max(0, next - tc.clock().getTime()));
    }

    const final = await events(db, ids);
    assert.deepEqual(
      ids.map((id) => [id, final.get(id)!.status, final.get(id)!.attempts]),
      [
        ['evt_always_hangs', 'dead', MAX_ATTEMPTS],
        ['evt_always_resets', 'dead', MAX_ATTEMPTS],
        ['evt_recovers_at_5', 'delivered', 5],
      ],
    );
    for (const id of ids) {
      const attempts = await attemptsOf(db, id);
      assert.deepEqual(
        attempts.map((a) => a.attemptNo),
        Array.from({ length: final.get(id)!.attempts }, (_, i) => i + 1),
        `${id}: every attempt stored once`,
      );
      assert.equal(rx.received.filter((a) => a.eventId === id).length, attempts.length, `${id}: stored attempts are the ones made`);
    }
    const letters = new Map((await listDeadLetters(db, { partnerId: 'ptn_a' })).map((d) => [d.eventId, d.reason]));
    assert.equal(letters.get('evt_always_hangs'), `gave up after ${MAX_ATTEMPTS} attempts: timeout after ${RETRY_TIMEOUT_MS} ms`);
    assert.match(letters.get('evt_always_resets') ?? '', new RegExp(`^gave up after ${MAX_ATTEMPTS} attempts: .*(${RESET.source})`, 'i'));
    assert.equal(letters.has('evt_recovers_at_5'), false);
  });

  it("a hanging partner does not hold up another: B's events are all delivered while A's first attempts are still held", async () => {
    const db = store().db;
    // A's receiver holds every request until all of B is delivered; the timeout is long enough
    // never to decide anything here. Were B waiting on A's slots, B would finish only after A's
    // attempts timed out, and A's third event would have arrived by then.
    let bDone!: () => void;
    const allOfB = new Promise<void>((resolve) => (bDone = resolve));
    const slow = await receiver(() => ({ status: 204, until: allOfB }));
    const fast = await receiver(() => ({ status: 204 }));
    await seedEndpoint(db, 'ptn_a', slow.url);
    await seedEndpoint(db, 'ptn_b', fast.url);
    // A's events sort first, so they are handed out first.
    const a = ['evt_a_1', 'evt_a_2', 'evt_a_3'];
    const b = Array.from({ length: 8 }, (_, i) => `evt_b_${i + 1}`);
    for (const eventId of a) await seedEvent(db, 'ptn_a', { eventId });
    for (const eventId of b) await seedEvent(db, 'ptn_b', { eventId });

    // A's third event can start only when one of its first two attempts has ended (two slots per endpoint).
    let arrivalsAtAWhenBDone: number | undefined;
    const deps = testDeps(testClock(), {
      timeoutMs: 60_000,
      concurrency: 4,
      perEndpointConcurrency: 2,
      onProgress: (p) => {
        // Nothing of A can be delivered before B is done, so the 8th delivery is B's last.
        if (p.totals.delivered === b.length && arrivalsAtAWhenBDone === undefined) {
          arrivalsAtAWhenBDone = slow.received.length;
          bDone();
        }
      },
    });
    const report = await deliverDue(db, deps, 'run_1');

    assert.equal(arrivalsAtAWhenBDone, 2, 'all of B was delivered while A held only its two slots');
    assert.deepEqual(report.perPartner.get('ptn_b'), { ...emptyTally(), delivered: 8 });
    assert.deepEqual(report.perPartner.get('ptn_a'), { ...emptyTally(), delivered: 3 });
    assert.deepEqual(
      fast.received.map((r) => [r.eventId, r.nth, r.signatureValid]).sort(),
      b.map((id) => [id, 1, true]),
    );
    assert.deepEqual(slow.received.map((r) => r.eventId).sort(), a, "A's three events, once each");
  });
});
