import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { beforeEach, it } from 'node:test';
import { acquireLease, findLease } from '../../src/store/repositories/leases-repo.ts';
import { holderName, SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { cli } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';
import { resetDelivery, seedEndpoint, seedEvent, seedPartners } from '../support/sync-world.ts';

// The case it exists for, a holder killed with SIGKILL, is in test/sync/sync-signals.test.ts.
describeEachStore('svc admin release-sync-lock', ({ store, url }) => {
  const now = new Date().toISOString();
  const inTenMinutes = new Date(Date.parse(now) + 10 * 60_000).toISOString();
  const release = (...flags: string[]) => cli(['--db', url(), 'admin', 'release-sync-lock', ...flags], {}, now);
  beforeEach(async () => resetDelivery(store().db));

  /** An event of partner ptn_a claimed by `runId`. */
  async function claimedBy(runId: string): Promise<string> {
    const { eventId } = await seedEvent(store().db, 'ptn_a');
    await store()
      .db.updateTable('outbox_events')
      .set({ locked_by: runId, locked_until: inTenMinutes })
      .where('event_id', '=', eventId)
      .execute();
    return eventId;
  }

  it('with no lock held, says so and changes nothing', async () => {
    const r = await release();
    assert.deepEqual([r.code, r.stdout], [0, 'no sync lock is held; nothing to release\n']);
  });

  it("refuses (exit 75) while the holder process runs on this machine; --force clears it and that run's claims, no other", async () => {
    await seedPartners(store().db, 'ptn_a');
    await seedEndpoint(store().db, 'ptn_a', 'http://127.0.0.1:9/hooks');
    const mine = await claimedBy('run_live');
    const others = await claimedBy('run_other');
    const holder = holderName('run_live', { pid: process.pid, host: hostname() });
    await acquireLease(store().db, SYNC_LEASE, holder, now, inTenMinutes);
    const refused = await release();
    assert.equal(refused.code, 75);
    assert.match(
      refused.stderr,
      new RegExp(`live until ${inTenMinutes.replace(/\.\d{3}Z$/, 'Z')}; its process ${process.pid} still runs on this machine`),
    );
    assert.equal((await findLease(store().db, SYNC_LEASE))?.holder, holder, 'the lock is still held');
    const forced = await release('--force');
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /released the sync lock of run_live .*forced.*; 1 claimed event\(s\) released/);
    assert.equal(await findLease(store().db, SYNC_LEASE), undefined);
    assert.equal((await findOutboxEvent(store().db, mine))?.lockedBy, null);
    assert.equal((await findOutboxEvent(store().db, others))?.lockedBy, 'run_other');
  });

  it('refuses for a holder on another machine until its lease lapses, then clears it without --force', async () => {
    await acquireLease(store().db, SYNC_LEASE, holderName('run_far', { pid: 1, host: 'some-other-host.invalid' }), now, inTenMinutes);
    const refused = await release();
    assert.equal(refused.code, 75);
    assert.match(refused.stderr, /runs on some-other-host\.invalid, which this machine cannot check.*--force/);
    const later = await cli(['--db', url(), 'admin', 'release-sync-lock'], {}, inTenMinutes);
    assert.equal(later.code, 0, later.stderr);
    assert.match(later.stdout, /its lease had lapsed/);
  });

  it('writes an audit row, refused or not', async () => {
    const before = await store().db.selectFrom('audit_log').select('status').where('route', '=', 'svc admin release-sync-lock').execute();
    await acquireLease(store().db, SYNC_LEASE, holderName('run_live', { pid: process.pid, host: hostname() }), now, inTenMinutes);
    await release();
    await release('--force');
    const rows = await store().db.selectFrom('audit_log').select('status').where('route', '=', 'svc admin release-sync-lock').execute();
    assert.deepEqual(
      rows.slice(before.length).map((r) => r.status),
      [409, 0],
    );
  });
});
