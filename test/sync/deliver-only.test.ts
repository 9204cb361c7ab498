import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/database.ts';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { acquireLease, findLease } from '../../src/store/repositories/leases-repo.ts';
import { SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { cli } from '../support/cli.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { spawnSync } from '../support/svc-child.ts';
import { seedEndpoint, seedEvent } from '../support/sync-world.ts';

/** `bin/svc sync --deliver-only` as a child process; resolves with its exit code and output. */
async function deliverer(dbUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // A long attempt timeout: the first requests wait until the other processes are up, and must not be retried meanwhile.
  const run = spawnSync(dbUrl, { SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2', SVC_WEBHOOK_TIMEOUT_MS: '60000' }, ['--deliver-only']);
  const [code] = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Resolves once `n` deliverers hold claims on the outbox at the same time (polled: they are other processes). */
async function claimedByAtLeast(db: Kysely<Database>, n: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 120_000; await delay(50)) {
    const row = await db
      .selectFrom('outbox_events')
      .select((eb) => eb.fn.count<string | number>('locked_by').distinct().as('n'))
      .where('locked_by', 'is not', null)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= n) return;
  }
  throw new Error(`${n} deliverers never held claims at once`);
}

describeEachStore('svc sync --deliver-only', ({ store, url }) => {
  const world = receiverWorld(store);

  async function seedDue(count: number): Promise<string[]> {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await seedEvent(db, 'ptn_a', { nextAttemptAt: new Date().toISOString() })).eventId);
    return ids;
  }

  function assertEachSentOnce(ids: readonly string[]): void {
    const perEvent = new Map<string, number>();
    for (const r of world.rx.received) perEvent.set(r.eventId, (perEvent.get(r.eventId) ?? 0) + 1);
    assert.deepEqual([...perEvent.keys()].sort(), [...ids].sort(), 'every event reached the receiver');
    assert.deepEqual(
      [...perEvent.values()].filter((n) => n !== 1),
      [],
      'none twice',
    );
    assert.ok(world.rx.received.every((r) => r.signatureValid));
  }

  it('two deliverers at once share the outbox: every event is sent once and stored once, and both took part', async () => {
    const db = store().db;
    const ids = await seedDue(120);
    // Nothing is answered until both processes hold claims: each then delivers the events it claimed.
    const bothClaimed = claimedByAtLeast(db, 2);
    world.reply = () => ({ status: 204, until: bothClaimed });
    const [one, other] = await Promise.all([deliverer(url()), deliverer(url())]);

    assert.deepEqual([one.code, other.code], [0, 0], one.stderr + other.stderr);
    assertEachSentOnce(ids);
    const attempts = await listDeliveryAttempts(db, { limit: 1000 });
    assert.deepEqual(attempts.map((a) => a.eventId).sort(), [...ids].sort(), 'one stored attempt per event');
    const delivered = [one, other].map((r) => Number(/(\d+) delivered/.exec(r.stdout)?.[1]));
    assert.equal(delivered[0]! + delivered[1]!, 120);
    assert.ok(
      delivered.every((n) => n > 0),
      `both delivered some: ${delivered.join(',')}`,
    );
  });

  it('three deliverers at once never have more requests in flight to one endpoint than SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT', async () => {
    const db = store().db;
    const ids = await seedDue(150);
    // Requests hang until all three processes hold claims (each would send two at once on its
    // own: six), then each is answered after a short wait, so the processes keep competing.
    const allClaimed = claimedByAtLeast(db, 3);
    let inFlight = 0;
    let most = 0;
    world.reply = () => {
      most = Math.max(most, ++inFlight);
      return { status: 204, until: allClaimed.then(() => delay(15)).finally(() => void (inFlight -= 1)) };
    };
    const runs = await Promise.all([deliverer(url()), deliverer(url()), deliverer(url())]);

    assert.deepEqual(
      runs.map((r) => r.code),
      [0, 0, 0],
      runs.map((r) => r.stderr).join(''),
    );
    assertEachSentOnce(ids);
    assert.equal(most, 2, 'at most two requests in flight to the endpoint over the three processes, and two were');
    const delivered = runs.map((r) => Number(/(\d+) delivered/.exec(r.stdout)?.[1]));
    assert.equal(
      delivered.reduce((a, b) => a + b),
      150,
    );
    assert.ok(
      delivered.every((n) => n > 0),
      `each delivered the events it claimed: ${delivered.join(',')}`,
    );
    const held = await db.selectFrom('endpoint_send_slots').select('slot').where('held_by', 'is not', null).execute();
    assert.deepEqual(held, [], 'every slot given back when the processes ended');
    // Each process folds its attempts into the endpoint's health: together they add up.
    const health = await db
      .selectFrom('webhook_endpoints')
      .select(['consecutive_failures', 'failing_since', 'last_success_at'])
      .executeTakeFirstOrThrow();
    const last = await db
      .selectFrom('delivery_attempts')
      .select((eb) => eb.fn.max('attempted_at').as('at'))
      .executeTakeFirstOrThrow();
    assert.deepEqual(health, { consecutive_failures: 0, failing_since: null, last_success_at: last.at });
  });

  it('runs beside a sync that holds the lock, takes no lock and runs no diff', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    world.reply = () => ({ status: 204 });
    const now = new Date().toISOString();
    await acquireLease(db, SYNC_LEASE, 'run_cron pid 1 on elsewhere', now, '2099-01-01T00:00:00.000Z');
    const res = await cli(['--db', url(), 'sync', '--deliver-only'], { SVC_ALLOW_INSECURE_WEBHOOKS: '1' }, now);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /: deliver only, no diff, 1 delivered/);
    assert.deepEqual(
      world.rx.received.map((r) => r.eventId),
      [eventId],
    );
    assert.equal((await findLease(db, SYNC_LEASE))?.holder, 'run_cron pid 1 on elsewhere', 'the lock is untouched');
  });
});
