import assert from 'node:assert/strict';
import { it } from 'node:test';
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
  // A long attempt timeout: the first requests wait until the other process is up, and must not be retried meanwhile.
  const run = spawnSync(dbUrl, { SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2', SVC_WEBHOOK_TIMEOUT_MS: '60000' }, ['--deliver-only']);
  const [code] = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describeEachStore('svc sync --deliver-only', ({ store, url }) => {
  const world = receiverWorld(store);

  it('two deliverers at once share the outbox: every event is sent once and stored once, and both took part', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push((await seedEvent(db, 'ptn_a', { nextAttemptAt: new Date().toISOString() })).eventId);
    // Nothing is answered until four requests are in flight: one process has at most two to the
    // endpoint, so by then both are delivering, each from the events it claimed.
    let open!: () => void;
    const bothSending = new Promise<void>((resolve) => (open = resolve));
    world.reply = (n) => {
      if (n === 4) open();
      return { status: 204, until: bothSending };
    };
    const [one, other] = await Promise.all([deliverer(url()), deliverer(url())]);

    assert.deepEqual([one.code, other.code], [0, 0], one.stderr + other.stderr);
    const perEvent = new Map<string, number>();
    for (const r of world.rx.received) perEvent.set(r.eventId, (perEvent.get(r.eventId) ?? 0) + 1);
    assert.deepEqual([...perEvent.keys()].sort(), [...ids].sort(), 'every event reached the receiver');
    assert.deepEqual([...perEvent.values()].filter((n) => n !== 1), [], 'none twice');
    assert.ok(world.rx.received.every((r) => r.signatureValid));
    const attempts = await listDeliveryAttempts(db, { limit: 1000 });
    assert.deepEqual(attempts.map((a) => a.eventId).sort(), [...ids].sort(), 'one stored attempt per event');
    const delivered = [one, other].map((r) => Number(/(\d+) delivered/.exec(r.stdout)?.[1]));
    assert.equal(delivered[0]! + delivered[1]!, 120);
    assert.ok(delivered.every((n) => n > 0), `both delivered some: ${delivered}`);
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
    assert.match(res.stdout, /: 0 created, 1 delivered/);
    assert.deepEqual(world.rx.received.map((r) => r.eventId), [eventId]);
    assert.equal((await findLease(db, SYNC_LEASE))?.holder, 'run_cron pid 1 on elsewhere', 'the lock is untouched');
  });
});
