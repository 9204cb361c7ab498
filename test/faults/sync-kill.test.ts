import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, it } from 'node:test';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { findLease } from '../../src/store/repositories/leases-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { describeEachStore } from '../support/stores.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { seedEndpoint, seedEvent, testClock, testDeps } from '../support/sync-world.ts';
import { eventually } from '../support/probe.ts';
import { svcCommand } from '../support/svc-build.ts';

const MIN = 60_000;

/*
 * test/sync/concurrency-and-crash.test.ts kills a run with its one event in flight. This kills one
 * part-way through a batch, where a run can lose events in more ways: acknowledged but not
 * recorded, claimed but never sent, or never reached. (test/sync/sync-signals.test.ts releases a
 * killed run's claims at once with `svc admin release-sync-lock`.)
 */
describeEachStore('svc sync killed with SIGKILL part-way through a batch, then rerun', ({ store, url }) => {
  let child: ChildProcess | undefined;
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
  const world = receiverWorld(store);

  it('nothing is lost: what was recorded is not sent again, what was in flight is sent again (same event), the rest is sent once', async () => {
    const db = store().db;
    const now = new Date();
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const ids: string[] = [];
    for (let i = 1; i <= 8; i++)
      ids.push((await seedEvent(db, 'ptn_a', { eventId: `evt_kill_${i}`, nextAttemptAt: now.toISOString() })).eventId);
    // Two at a time to the endpoint: three acknowledged, then the 4th and 5th hang, and the kill comes.
    world.reply = (n) => (n <= 3 ? { status: 204 } : { hang: true });

    const svc = svcCommand();
    child = spawn(svc.command, [...svc.args, 'sync'], {
      env: {
        ...process.env,
        ...svc.env,
        SVC_DATABASE_URL: url(),
        SVC_ALLOW_INSECURE_WEBHOOKS: '1',
        SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
      },
      stdio: 'ignore',
    });
    await eventually('the 4th and 5th deliveries are in flight', async () => world.rx.received.length >= 5, 20_000);
    // Requests do not wait for the store: the 4th and 5th may leave before the first three are stored.
    await eventually('the three acknowledged deliveries are stored', async () => (await listDeliveryAttempts(db)).length === 3, 20_000);
    child.kill('SIGKILL');
    await once(child, 'exit');

    const state = async () =>
      Promise.all(
        ids.map(async (id) => {
          const e = (await findOutboxEvent(db, id))!;
          return [id, e.status, e.attempts, e.lockedBy === null ? 'unclaimed' : 'claimed'];
        }),
      );
    const sent = world.rx.received.map((r) => r.eventId);
    const acknowledged = sent.slice(0, 3);
    const inFlight = sent.slice(3, 5);
    const untouched = ids.filter((id) => !sent.includes(id));
    // The run had claimed its whole batch: what it never reached stays claimed until the claim lapses.
    assert.deepEqual(
      await state(),
      ids.map((id) => (acknowledged.includes(id) ? [id, 'delivered', 1, 'unclaimed'] : [id, 'pending', 0, 'claimed'])),
    );
    assert.equal(untouched.length, 3);
    assert.ok(await findLease(db, SYNC_LEASE), 'the killed run still holds the sync lease');

    // Cron's next run after the lease (10 min) and the claims (5 min) have lapsed.
    const firstBodies = new Map(world.rx.received.map((r) => [r.eventId, r.body]));
    world.rx.received.length = 0;
    world.reply = () => ({ status: 204 });
    const summary = await runSync(db, testDeps(testClock(new Date(now.getTime() + 11 * MIN).toISOString())));
    assert.equal(summary.delivery?.totals.delivered, 5);
    assert.deepEqual(
      world.rx.received.map((r) => r.eventId).sort(),
      [...inFlight, ...untouched].sort(),
      'recorded deliveries are not sent again',
    );
    assert.ok(world.rx.received.every((r) => r.signatureValid));
    for (const id of inFlight)
      assert.equal(world.rx.received.find((r) => r.eventId === id)?.body, firstBodies.get(id), `${id}: the same event again`);
    assert.deepEqual(
      await state(),
      ids.map((id) => [id, 'delivered', 1, 'unclaimed']),
    );
    for (const id of ids) {
      const attempts = await listDeliveryAttempts(db, { eventId: id });
      assert.deepEqual(
        attempts.map((a) => [a.attemptNo, a.outcome]),
        [[1, 'delivered']],
        `${id}: the attempt that completed is stored`,
      );
    }
    assert.equal(await findLease(db, SYNC_LEASE), undefined);
  });
});
