import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { afterEach, it } from 'node:test';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { findLease } from '../../src/store/repositories/leases-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { eventually } from '../support/probe.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent } from '../support/sync-world.ts';
import { spawnSync, type SvcChild } from '../support/svc-child.ts';

/** A promise the test settles by hand. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describeEachStore('svc sync stopped by SIGTERM or SIGINT', ({ store, url }) => {
  const world = receiverWorld(store);
  let running: SvcChild | undefined;
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
  });

  async function seedFive(): Promise<string[]> {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const now = new Date().toISOString();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await seedEvent(db, 'ptn_a', { eventId: `evt_sig_${i}`, nextAttemptAt: now })).eventId);
    return ids;
  }

  const state = (ids: string[]) =>
    Promise.all(
      ids.map(async (id) => {
        const e = (await findOutboxEvent(store().db, id))!;
        return [id, e.status, e.attempts, e.lockedBy];
      }),
    );

  it('SIGTERM: the delivery in flight finishes and is stored, nothing more is claimed, the lock is released, exit 143', async () => {
    const ids = await seedFive();
    const held = gate();
    world.reply = (n) => (n === 1 ? { status: 204, until: held.promise } : { status: 204 });
    running = spawnSync(url(), { SVC_SHUTDOWN_GRACE_MS: '60000' });
    await eventually('the first delivery is in flight', async () => world.rx.received.length === 1, 20_000);
    running.child.kill('SIGTERM');
    await eventually('the run says it is stopping', async () => running!.stderr().includes('SIGTERM: stopping'), 10_000);
    held.open();
    const [code] = await running.exited;

    assert.equal(code, 143, running.stderr());
    const first = world.rx.received[0]!.eventId;
    assert.deepEqual(
      world.rx.received.map((r) => r.eventId),
      [first],
      'no event was sent after the signal',
    );
    assert.deepEqual(
      await state(ids),
      ids.map((id) => (id === first ? [id, 'delivered', 1, null] : [id, 'pending', 0, null])),
    );
    assert.deepEqual(
      (await listDeliveryAttempts(store().db, { eventId: first })).map((a) => [a.attemptNo, a.outcome]),
      [[1, 'delivered']],
    );
    assert.equal(await findLease(store().db, SYNC_LEASE), undefined, 'the sync lock is released');
    assert.match(running.stdout(), /1 delivered.*4 left for the next run/);
    assert.match(running.stderr(), /stopped by SIGTERM/);

    // The next run is not refused: it delivers the rest.
    const next = spawnSync(url());
    const [nextCode] = await next.exited;
    assert.equal(nextCode, 0, next.stderr());
    assert.deepEqual(world.rx.received.map((r) => r.eventId).sort(), ids);
  });

  it('SIGINT: a delivery still unanswered when the grace period ends is abandoned, nothing is stored for it, its claim is released, exit 130', async () => {
    const ids = await seedFive();
    world.reply = () => ({ hang: true });
    running = spawnSync(url(), { SVC_SHUTDOWN_GRACE_MS: '200', SVC_WEBHOOK_TIMEOUT_MS: '120000' });
    await eventually('the first delivery is in flight', async () => world.rx.received.length === 1, 20_000);
    running.child.kill('SIGINT');
    const [code] = await running.exited;

    assert.equal(code, 130, running.stderr());
    assert.match(running.stderr(), /SIGINT: abandoning the deliveries still in flight/);
    assert.equal(world.rx.received.length, 1);
    assert.deepEqual(
      await state(ids),
      ids.map((id) => [id, 'pending', 0, null]),
      'no attempt counted, every claim released',
    );
    assert.deepEqual(await listDeliveryAttempts(store().db), []);
    assert.equal(await findLease(store().db, SYNC_LEASE), undefined);
    assert.match(running.stdout(), /1 interrupted.*4 left for the next run/);
  });

  it('a second signal abandons the delivery in flight at once, without waiting for the grace period', async () => {
    const ids = await seedFive();
    world.reply = () => ({ hang: true });
    running = spawnSync(url(), { SVC_SHUTDOWN_GRACE_MS: '600000', SVC_WEBHOOK_TIMEOUT_MS: '120000' });
    await eventually('the first delivery is in flight', async () => world.rx.received.length === 1, 20_000);
    running.child.kill('SIGTERM');
    await eventually('the run says it is stopping', async () => running!.stderr().includes('SIGTERM: stopping'), 10_000);
    running.child.kill('SIGTERM');
    const [code] = await running.exited;
    assert.equal(code, 143, running.stderr());
    assert.deepEqual(
      await state(ids),
      ids.map((id) => [id, 'pending', 0, null]),
    );
    assert.equal(await findLease(store().db, SYNC_LEASE), undefined);
  });

  it("after a SIGKILL the next run takes over the lease and the killed run's claims without an operator", async () => {
    const ids = await seedFive();
    world.reply = (n) => (n === 1 ? { hang: true } : { status: 204 });
    running = spawnSync(url());
    await eventually('the first delivery is in flight', async () => world.rx.received.length === 1, 20_000);
    running.child.kill('SIGKILL');
    await running.exited;
    const lease = (await findLease(store().db, SYNC_LEASE))!;
    assert.equal(lease.holder.endsWith(` pid ${running.child.pid} on ${hostname()}`), true, lease.holder);
    assert.ok(
      (await state(ids)).some(([, , , lockedBy]) => lockedBy !== null),
      'the killed run left its claims',
    );
    const heldSlots = () => store().db.selectFrom('endpoint_send_slots').select('held_by').where('held_by', 'is not', null).execute();
    assert.equal((await heldSlots()).length, 1, "and the endpoint's request slot it held");

    // The next run sends all five now, the one that was in flight again (same event).
    const next = spawnSync(url());
    const [nextCode] = await next.exited;
    assert.equal(nextCode, 0, next.stderr());
    assert.deepEqual(
      (await state(ids)).map(([, status]) => status),
      Array(5).fill('delivered'),
    );
    assert.deepEqual(world.rx.received.map((r) => r.eventId).sort(), [ids[0], ...ids].sort());
    assert.deepEqual(await heldSlots(), [], 'the slot was given back with the lease, and the next run gave back its own');
    const killedRun = await store()
      .db.selectFrom('sync_runs')
      .select(['outcome', 'finished_at'])
      .where('run_id', '=', lease.holder.split(' ')[0]!)
      .executeTakeFirstOrThrow();
    assert.equal(killedRun.outcome, 'error', 'the killed run is recorded as ended, not running forever');
    assert.notEqual(killedRun.finished_at, null);
  });
});
