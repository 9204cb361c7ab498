import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, beforeEach, it } from 'node:test';
import { openStore } from '../../src/store/connect.ts';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { acquireLease, findLease } from '../../src/store/repositories/leases-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { acquireSyncLease, SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver, type Reply } from '../support/receiver.ts';
import { svcCommand } from '../support/svc-build.ts';
import { resetDelivery, SECRET, seedEndpoint, seedEvent, seedPartners, testClock, testDeps } from '../support/sync-world.ts';

const MIN = 60_000;

function countBy<T>(items: T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return m;
}

describeEachStore('concurrent runs, the sync lock and crashed runs', ({ store, url }) => {
  let reply: (n: number) => Reply = () => ({ status: 204 });
  let rx: Receiver;
  before(async () => {
    await seedPartners(store().db, 'ptn_a', 'ptn_b', 'ptn_c');
    rx = await startReceiver(SECRET, (_r, n) => reply(n));
  });
  beforeEach(async () => {
    await resetDelivery(store().db);
    rx.received.length = 0;
    reply = () => ({ status: 204, delayMs: 5 });
  });
  after(async () => rx.close());

  for (const status of [204, 500]) {
    it(`two delivery runs at once on separate connections never make the same attempt (receiver answers ${status})`, async () => {
      // Two small pools: SQLite writers busy-wait on libuv's four threads, which one process shares.
      const one = await openStore(url(), { poolSize: 2 });
      const other = await openStore(url(), { poolSize: 2 });
      try {
        reply = () => ({ status, delayMs: 5 });
        const db = one.db;
        const ids: string[] = [];
        for (const p of ['ptn_a', 'ptn_b', 'ptn_c']) {
          await seedEndpoint(db, p, rx.url);
          for (let i = 0; i < 12; i++) ids.push((await seedEvent(db, p)).eventId);
        }
        const tc = testClock();
        // Twelve failing events per endpoint: about claims, not the breaker, which would stop the retries.
        const deps = () => testDeps(tc, { breakerFailures: Infinity });
        const [r1, r2] = await Promise.all([deliverDue(db, deps(), 'run_x'), deliverDue(other.db, deps(), 'run_y')]);
        assert.deepEqual([...r1.errors, ...r2.errors], []);
        const perEvent = status === 204 ? 1 : 3;
        assert.equal(r1.due + r2.due >= ids.length, true);
        assert.equal(r1.ended - r1.totals.skipped + r2.ended - r2.totals.skipped, ids.length);
        const received = countBy(rx.received, (r) => r.eventId);
        assert.deepEqual(
          [...received.values()].filter((n) => n !== perEvent),
          [],
          'each event received exactly once per attempt',
        );
        assert.equal(received.size, ids.length);
        const attempts = await listDeliveryAttempts(db, { limit: 1000 });
        const keys = countBy(attempts, (a) => `${a.eventId}#${a.attemptNo}`);
        assert.equal(keys.size, ids.length * perEvent);
        assert.ok(
          [...keys.values()].every((n) => n === 1),
          'no attempt number stored twice',
        );
      } finally {
        await one.close();
        await other.close();
      }
    });
  }

  it('a sync while another holds the lock fails at once with sync_locked (exit 75) and sends nothing', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', rx.url);
    await seedEvent(db, 'ptn_a');
    const tc = testClock();
    const held = await acquireSyncLease(db, 'run_first', tc.clock);
    const err = await runSync(db, testDeps(tc)).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.deepEqual([(err as any)?.code, (err as any)?.exitCode], ['sync_locked', 75]);
    assert.match((err as Error).message, /another sync run is in progress \(run_first/);
    assert.equal(rx.received.length, 0);
    await held.release();
    const summary = await runSync(db, testDeps(tc));
    assert.equal(summary.delivery?.totals.delivered, 1);
    assert.equal(await findLease(db, SYNC_LEASE), undefined, 'the lease is released at the end');
  });

  it('two syncs started together: one runs, the other is refused', async () => {
    const one = await openStore(url(), { poolSize: 2 });
    const other = await openStore(url(), { poolSize: 2 });
    try {
      const db = one.db;
      reply = () => ({ status: 204, delayMs: 100 });
      await seedEndpoint(db, 'ptn_a', rx.url);
      await seedEvent(db, 'ptn_a');
      const tc = testClock();
      const results = await Promise.allSettled([runSync(db, testDeps(tc)), runSync(other.db, testDeps(tc))]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      assert.equal(refused.reason.code, 'sync_locked');
      assert.equal(rx.received.length, 1);
    } finally {
      await one.close();
      await other.close();
    }
  });

  it("a crashed run's lease expires after 10 minutes and the next run takes over", async () => {
    const db = store().db;
    const tc = testClock();
    await acquireLease(db, SYNC_LEASE, 'run_crashed', tc.iso(), new Date(tc.clock().getTime() + 10 * MIN).toISOString());
    tc.advance(9 * MIN);
    await assert.rejects(runSync(db, testDeps(tc)), { code: 'sync_locked' });
    tc.advance(MIN);
    await runSync(db, testDeps(tc));
  });

  it('a run killed mid-delivery loses nothing: the next run delivers the event (same event_id) once the claim lapses', async () => {
    const db = store().db;
    const now = new Date();
    await seedEndpoint(db, 'ptn_a', rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a', { nextAttemptAt: now.toISOString() });
    let gotFirst!: () => void;
    const first = new Promise<void>((resolve) => (gotFirst = resolve));
    reply = (n) => (n === 1 ? (gotFirst(), { hang: true }) : { status: 204 });

    const svc = svcCommand();
    const child = spawn(svc.command, [...svc.args, 'sync'], {
      env: { ...process.env, ...svc.env, SVC_DATABASE_URL: url(), SVC_ALLOW_INSECURE_WEBHOOKS: '1' },
      stdio: 'ignore',
    });
    await first;
    child.kill('SIGKILL');
    await once(child, 'exit');

    const orphan = await findOutboxEvent(db, eventId);
    assert.deepEqual([orphan?.status, orphan?.attempts], ['pending', 0]);
    assert.ok(orphan?.lockedBy, 'the killed run had claimed the event');
    assert.ok(await findLease(db, SYNC_LEASE), 'and held the sync lease');

    const tc = testClock(new Date(now.getTime() + 11 * MIN).toISOString());
    const summary = await runSync(db, testDeps(tc));
    assert.equal(summary.delivery?.totals.delivered, 1);
    assert.deepEqual(
      rx.received.map((r) => [r.eventId, r.signatureValid]),
      [
        [eventId, true],
        [eventId, true],
      ],
    );
    assert.equal((await findOutboxEvent(db, eventId))?.status, 'delivered');
  });

  it('events written by a run that died before delivering are delivered by the next run', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', rx.url);
    const written = [await seedEvent(db, 'ptn_a'), await seedEvent(db, 'ptn_a')];
    const summary = await runSync(db, testDeps(testClock()));
    assert.equal(summary.delivery?.totals.delivered, 2);
    assert.deepEqual(rx.received.map((r) => r.eventId).sort(), written.map((w) => w.eventId).sort());
  });

  it('events of a partner without an active endpoint are held, not attempted', async () => {
    const db = store().db;
    await seedEvent(db, 'ptn_c');
    const summary = await runSync(db, testDeps(testClock()));
    assert.equal(summary.delivery?.due, 0);
    assert.equal(summary.held.get('ptn_c'), 1);
  });
});
