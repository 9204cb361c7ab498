import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run.ts';
import { findLease } from '../../src/store/repositories/leases-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { findSyncCursor } from '../../src/store/repositories/sync-state-repo.ts';
import { SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { cli } from '../support/cli.ts';
import { seedWorld, START } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { resetDelivery, SECRET, seedEndpoint, seedEvent, seedPartners } from '../support/sync-world.ts';

const env = { SVC_ALLOW_INSECURE_WEBHOOKS: '1' };
const LATER = '2027-06-01T08:00:00Z';

describeEachStore('svc sync: its exit status, one --json shape, and a moved clock that may only look', ({ store, url }) => {
  let status = 204;
  let rx: Receiver;
  const svc = (argv: string[], extra: Record<string, string> = {}) => cli(['--db', url(), ...argv], { ...env, ...extra });
  before(async () => {
    await seedPartners(store().db, 'ptn_a');
    rx = await startReceiver(SECRET, () => ({ status }));
    await seedEndpoint(store().db, 'ptn_a', rx.url);
  });
  after(async () => rx.close());
  const fresh = async () => {
    await resetDelivery(store().db);
    await seedEndpoint(store().db, 'ptn_a', rx.url);
  };

  it('exits 0 when everything was delivered, 79 while an endpoint keeps failing with nothing dead, 76 when an event was dead-lettered', async () => {
    await fresh();
    status = 204;
    await seedEvent(store().db, 'ptn_a');
    const ok = await svc(['sync']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /1 delivered/);
    status = 503;
    // Two attempts made already: the run makes its last in-run attempt and keeps the retry for a
    // later run, without waiting out the 2 s and 8 s between in-run attempts.
    await seedEvent(store().db, 'ptn_a', { attempts: 2 });
    const retrying = await svc(['sync']);
    assert.equal(retrying.code, 79, retrying.stderr);
    assert.match(retrying.stdout, /1 retrying/);
    assert.match(
      retrying.stderr,
      /^svc: deliveries are not getting through to the endpoints of failing \(latest attempt failed, retries wait\): ptn_a .*; exit 79$/m,
    );
    const waiting = await svc(['sync', '--json']);
    assert.equal(waiting.code, 79, 'the next run attempts nothing (the retry is not due) and still says the endpoint is down');
    assert.deepEqual(JSON.parse(waiting.stdout).endpoints_failing, ['ptn_a']);
    status = 204;
    await seedEvent(store().db, 'ptn_a');
    assert.equal((await svc(['sync'])).code, 0, 'a delivered attempt: the endpoint answers again');

    await fresh();
    status = 422;
    const { eventId } = await seedEvent(store().db, 'ptn_a');
    const dead = await svc(['sync']);
    assert.equal(dead.code, 76, dead.stderr);
    assert.match(dead.stdout, /1 dead-lettered/);
    assert.match(dead.stderr, /^svc: the run dead-lettered events or could not record deliveries .*; exit 76$/m);
    assert.equal((await findOutboxEvent(store().db, eventId))?.status, 'dead');
    // Nothing more is dead-lettered, but the endpoint's latest attempt failed.
    assert.equal((await svc(['sync'])).code, 79);
  });

  it('a disabled endpoint exits 79 naming it, with or without events waiting', async () => {
    await fresh();
    await store().db.updateTable('webhook_endpoints').set({ status: 'disabled' }).where('partner_id', '=', 'ptn_a').execute();
    const empty = await svc(['sync']);
    assert.equal(empty.code, 79, empty.stderr);
    assert.match(empty.stderr, /disabled \(events wait until it is re-enabled\): ptn_a/);
    await seedEvent(store().db, 'ptn_a');
    const held = await svc(['sync', '--json']);
    assert.equal(held.code, 79, held.stderr);
    const summary = JSON.parse(held.stdout);
    assert.deepEqual([summary.endpoints_disabled, summary.partners[0].held], [['ptn_a'], 1]);
  });

  it('--json and --dry-run --json have the same keys, and --json says the exit code', async () => {
    await fresh();
    status = 422;
    await seedEvent(store().db, 'ptn_a');
    const dry = await svc(['sync', '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    const real = await svc(['sync', '--json']);
    assert.equal(real.code, 76, real.stderr);
    const [d, r] = [JSON.parse(dry.stdout), JSON.parse(real.stdout)];
    assert.deepEqual(Object.keys(d), Object.keys(r));
    assert.deepEqual(Object.keys(d.totals), Object.keys(r.totals));
    assert.deepEqual([d.dry_run, d.exit_code, d.would_attempt.length, d.totals.dead_lettered], [true, 0, 1, 0]);
    assert.deepEqual([r.dry_run, r.exit_code, r.would_attempt, r.would_create, r.totals.dead_lettered], [false, 76, [], [], 1]);
  });

  it('with SVC_NOW set it refuses to write or deliver, in one line naming SVC_NOW_ALLOW_WRITES; --dry-run still works', async () => {
    await fresh();
    status = 204;
    const { eventId } = await seedEvent(store().db, 'ptn_a');
    const received = rx.received.length;
    const cursor = await findSyncCursor(store().db);
    for (const flags of [[], ['--deliver-only'], ['--full'], ['--json']]) {
      const refused = await svc(['sync', ...flags], { SVC_NOW: LATER });
      assert.equal(refused.code, 64, flags.join(' '));
      assert.equal(refused.stdout, '');
      assert.equal(refused.stderr.trimEnd().split('\n').length, 1, refused.stderr);
      assert.match(refused.stderr, /^svc: SVC_NOW is set \(2027-06-01T08:00:00Z\): .*SVC_NOW_ALLOW_WRITES=1.*--dry-run/);
    }
    assert.equal(rx.received.length, received, 'nothing was sent');
    assert.equal((await findOutboxEvent(store().db, eventId))?.status, 'pending');
    assert.equal(await findLease(store().db, SYNC_LEASE), undefined);
    assert.deepEqual(await findSyncCursor(store().db), cursor, 'the sync cursor is not moved to that day');

    const dry = await svc(['sync', '--dry-run'], { SVC_NOW: LATER });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, new RegExp(`^  ${eventId}\\t`, 'm'));
    const allowed = await svc(['sync'], { SVC_NOW: LATER, SVC_NOW_ALLOW_WRITES: '1' });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(rx.received.at(-1)?.eventId, eventId, 'SVC_NOW_ALLOW_WRITES=1 delivers');
  });
});

describeEachStore('svc sync on a terminal says how far the diff is', ({ store, url }) => {
  it('N of M crew and a percentage, ending at M of M (100%)', async () => {
    await seedWorld(store().db);
    const stdout = new PassThrough();
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    let err = '';
    stderr.on('data', (c) => (err += c));
    const saved = process.exitCode;
    process.exitCode = undefined;
    const code = await runCli(['--db', url(), 'sync', '--dry-run'], { env: {}, stdout, stderr, clock: () => new Date(START) });
    process.exitCode = saved;
    assert.equal(code, 0, err);
    const lines = err.split('\r').filter((l) => l.startsWith('diffing'));
    assert.ok(lines.length > 0, err);
    for (const l of lines) assert.match(l, /^diffing fleets: \d+ of \d+ \(\d+%\) crew\x1b\[K$/);
    assert.match(lines.at(-1)!, /^diffing fleets: 6 of 6 \(100%\) crew/);
  });
});
