import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { afterEach, it } from 'node:test';
import { findLease } from '../../src/store/repositories/leases-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { eventually } from '../support/probe.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent } from '../support/sync-world.ts';
import { spawnSync, type SvcChild } from '../support/svc-child.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/*
 * A store outage in the middle of `svc sync`: the run ends with one line naming the store and exit
 * 69, and the lease and claims it could not release are taken over by the next run, without
 * `svc admin release-sync-lock`. Postgres only: a SQLite file cannot go away under a running
 * process (test/faults/store-outage.test.ts says why).
 */
describeEachStore('svc sync when its store goes away mid-run', ({ store, url, dialect }) => {
  const world = receiverWorld(store);
  let running: SvcChild | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    await proxy?.close();
  });
  if (dialect === 'sqlite') return;

  it('exit 69 with one line naming the store; the next run takes over and sends every event with its event id', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const now = new Date().toISOString();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await seedEvent(db, 'ptn_a', { eventId: `evt_outage_${i}`, nextAttemptAt: now })).eventId);
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    // The first delivery is answered only once the store is gone: the run then cannot record it.
    world.reply = (n) => (n === 1 ? { status: 204, until: held } : { status: 204 });

    const target = new URL(url());
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.port = String(proxy.port);
    running = spawnSync(target.toString());
    await eventually('the first delivery is in flight', async () => world.rx.received.length === 1, 20_000);
    proxy.setMode('reset');
    letGo();
    const [code] = await running.exited;

    assert.equal(code, 69, running.stderr());
    const lines = running.stderr().trimEnd().split('\n');
    assert.equal(lines.length, 1, running.stderr());
    assert.match(
      lines[0]!,
      new RegExp(`^svc: the store postgres://[^ ]*:${proxy.port}/[^ ]+ became unavailable during the sync run \\(.+\\); `),
    );
    assert.doesNotMatch(running.stderr(), /\n\s+at /, 'no stack trace');
    const lease = await findLease(db, SYNC_LEASE);
    assert.ok(lease?.holder.endsWith(` pid ${running.child.pid} on ${hostname()}`), 'the run could not release its lease');

    proxy.setMode('forward');
    const next = spawnSync(url());
    const [nextCode] = await next.exited;
    assert.equal(nextCode, 0, next.stderr());
    for (const id of ids) assert.equal((await findOutboxEvent(db, id))?.status, 'delivered', id);
    const sent = new Set(world.rx.received.map((r) => r.eventId));
    assert.deepEqual([...sent].sort(), ids, 'every event arrived, under its own event id, and no other');
    assert.ok(world.rx.received.every((r) => r.signatureValid));
    assert.equal(await findLease(db, SYNC_LEASE), undefined, 'the next run released the lease it took over');
  });
});
