import assert from 'node:assert/strict';
import { it } from 'node:test';
import { receiverPool } from '../support/receiver-world.ts';
import type { Receiver } from '../support/receiver.ts';
import { describeEachStore } from '../support/stores.ts';
import { spawnSync } from '../support/svc-child.ts';
import { seedEndpoint, seedEvent } from '../support/sync-world.ts';

/*
 * Issue 19, item 5, through a real `svc sync` process with the shipped concurrency (8 at once,
 * 2 per endpoint) and breaker (5 failures in a row): endpoints that never answer beside one that
 * does (docs/webhooks.md, "One failing endpoint delays no one else").
 */
const HANGING = Array.from({ length: 9 }, (_, i) => `ptn_hang_${i + 1}`);
const HEALTHY = 'ptn_ok';

interface RunJson {
  exit_code: number;
  budget_spent: boolean;
  breakers_opened: string[];
  endpoints_failing: string[];
  totals: Record<string, number>;
}

async function runSync(url: string, env: Record<string, string>): Promise<{ code: number | null; json: RunJson; stderr: string }> {
  const run = spawnSync(url, { SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2', ...env }, ['--deliver-only', '--json']);
  const [code] = await run.exited;
  return { code, json: JSON.parse(run.stdout()) as RunJson, stderr: run.stderr() };
}

describeEachStore('endpoints that never answer during a real svc sync run', ({ store, url }) => {
  const receiver = receiverPool(store, HEALTHY, ...HANGING);

  it("the healthy partner's events all arrive while each hanging endpoint has had two requests at most; each hanging endpoint's breaker opens after 5; the run ends by itself and loses nothing", async () => {
    const db = store().db;
    const hanging: Receiver[] = [];
    for (const partnerId of HANGING) {
      const rx = await receiver(() => ({ hang: true }));
      hanging.push(rx);
      await seedEndpoint(db, partnerId, rx.url);
    }
    let hangingSeenAtLastHealthy = -1;
    const healthy = await receiver(() => {
      hangingSeenAtLastHealthy = hanging.reduce((n, rx) => n + rx.received.length, 0);
      return { status: 204 };
    });
    await seedEndpoint(db, HEALTHY, healthy.url);
    // The hanging partners' events sort first, so they are handed out first.
    const hangingIds: string[] = [];
    for (const partnerId of HANGING) {
      for (let i = 0; i < 8; i++) hangingIds.push((await seedEvent(db, partnerId, { eventId: `evt_a_${partnerId}_${i}` })).eventId);
    }
    const healthyIds: string[] = [];
    for (let i = 0; i < 20; i++) healthyIds.push((await seedEvent(db, HEALTHY, { eventId: `evt_z_${i}` })).eventId);

    // Every request to a hanging endpoint takes the whole timeout: 6 s, long beside the few ms
    // each of the healthy partner's requests takes. At 2 s a machine at load 30 (2 cores) took
    // longer than that for the 20 healthy deliveries, and the hanging endpoints' second round began.
    const { code, json, stderr } = await runSync(url(), { SVC_WEBHOOK_TIMEOUT_MS: '6000' });

    assert.equal(code, 79, `the hanging endpoints are failing, nothing is dead: ${stderr}`);
    assert.deepEqual([...json.endpoints_failing].sort(), [...HANGING].sort());
    assert.deepEqual(healthy.received.map((r) => r.eventId).sort(), [...healthyIds].sort(), 'every healthy event, once');
    assert.ok(
      hangingSeenAtLastHealthy <= 2 * HANGING.length,
      `the last healthy event arrived once the hanging endpoints had had ${hangingSeenAtLastHealthy} requests (two each at most: they were served after it)`,
    );
    assert.deepEqual(
      hanging.map((rx) => rx.received.length),
      HANGING.map(() => 5),
      'five requests to each hanging endpoint, then its breaker opened',
    );
    assert.deepEqual([...json.breakers_opened].sort(), [...HANGING].sort());
    assert.equal(json.totals.delivered, 20);
    const left = await db.selectFrom('outbox_events').select(['status', 'attempts']).where('event_id', 'in', hangingIds).execute();
    assert.equal(left.length, hangingIds.length);
    assert.deepEqual(
      left.filter((e) => e.status !== 'pending'),
      [],
      "every hanging partner's event waits for a later run: none dead, none lost",
    );
    assert.equal(
      left.reduce((n, e) => n + e.attempts, 0),
      5 * HANGING.length,
      'an event the breaker left untried used no attempt',
    );
  });

  it('a run whose delivery time budget runs out starts nothing more, ends with its summary, and leaves what it did not start untouched', async () => {
    const db = store().db;
    const rx = await receiver(() => ({ hang: true }));
    await seedEndpoint(db, HANGING[0]!, rx.url);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await seedEvent(db, HANGING[0]!)).eventId);

    // Two attempts start at once and time out after 1.5 s, then a third (the endpoint now failing
    // holds one slot); the budget of 2.5 s is spent before a fourth could start at 3 s, and long
    // before the breaker's fifth failure.
    const { code, json, stderr } = await runSync(url(), { SVC_WEBHOOK_TIMEOUT_MS: '1500', SVC_SYNC_DELIVERY_BUDGET_MS: '2500' });

    assert.equal(code, 79, `its endpoint is failing: ${stderr}`);
    assert.equal(json.budget_spent, true);
    assert.deepEqual(json.breakers_opened, []);
    const tried = rx.received.length;
    assert.ok(tried >= 2 && tried < 5, `${tried} requests before the budget ran out`);
    // Counted: the events the run had claimed and did not start (one batch of 32); the rest it never claimed.
    assert.equal(json.totals.budget_spent, 32 - tried);
    const rows = await db.selectFrom('outbox_events').select(['status', 'attempts', 'locked_by']).where('event_id', 'in', ids).execute();
    assert.deepEqual(
      rows.filter((r) => r.status !== 'pending' || r.locked_by !== null),
      [],
      'all pending again, no claim held',
    );
    assert.equal(rows.filter((r) => r.attempts === 0).length, 40 - tried);
  });
});
