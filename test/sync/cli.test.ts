import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run.ts';
import { wireTime } from '../../src/domain/clock.ts';
import { issueOperatorKey, issuePartnerKey } from '../../src/services/api-keys.ts';
import { findApiKey } from '../../src/store/repositories/api-keys-repo.ts';
import { acquireLease } from '../../src/store/repositories/leases-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { SYNC_LEASE } from '../../src/sync/sync-lease.ts';
import { cli } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { SECRET, seedEvent, seedPartners, T0, testClock } from '../support/sync-world.ts';

const env = { SVC_ALLOW_INSECURE_WEBHOOKS: '1' };

describeEachStore('svc sync and the webhook admin commands', ({ store, url }) => {
  let status = 204;
  let rx: Receiver;
  const svc = (...argv: string[]) => cli(['--db', url(), ...argv], env);
  before(async () => {
    await seedPartners(store().db, 'ptn_a', 'ptn_b');
    rx = await startReceiver(SECRET, () => ({ status }));
  });
  after(async () => rx.close());
  const register = (...flags: string[]) => svc('admin', 'register-webhook', ...flags);
  /** ptn_a's endpoint as the first test leaves it (registered again: nothing changes), for the tests that deliver. */
  const endpointOfA = async () => {
    const res = await register('--partner', 'ptn_a', '--url', rx.url, '--events', 'crew.status.changed', '--secret', SECRET);
    assert.equal(res.code, 0, res.stderr);
  };

  it('register-webhook creates, updates, says when nothing changed; prints the endpoint with its (generated) secret', async () => {
    const created = await register('--partner', 'ptn_b', '--url', rx.url, '--events', 'crew.status.changed, crew.profile.updated');
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /^registered webhook endpoint whe_/);
    const endpoint = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(endpoint), [
      'endpoint_id',
      'partner_id',
      'url',
      'subscribed_events',
      'notice_lead_days',
      'secret',
      'public_key',
      'status',
      'created_at',
      'updated_at',
      'health',
    ]);
    assert.deepEqual(endpoint.subscribed_events, ['crew.status.changed', 'crew.profile.updated']);
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const rotated = await register('--partner', 'ptn_a', '--url', rx.url, '--events', 'crew.status.changed', '--secret', SECRET);
    assert.match(rotated.stderr, /^registered/);
    const again = await register('--partner', 'ptn_a', '--url', rx.url, '--events', 'crew.status.changed', '--secret', SECRET);
    // The same values again: said so, and nothing written.
    assert.match(again.stderr, /^webhook endpoint whe_\w+ of partner ptn_a already had these values: nothing changed$/m);
    assert.equal(JSON.parse(again.stdout).secret, SECRET);
    assert.equal(JSON.parse(again.stdout).updated_at, JSON.parse(rotated.stdout).updated_at);
    const moved = await register(
      '--partner',
      'ptn_a',
      '--url',
      rx.url,
      '--events',
      'crew.status.changed, crew.profile.updated',
      '--secret',
      SECRET,
    );
    assert.match(moved.stderr, /^updated webhook endpoint whe_\w+ for partner ptn_a/);
    await register('--partner', 'ptn_a', '--url', rx.url, '--events', 'crew.status.changed', '--secret', SECRET);
    const list = await svc('admin', 'list-webhooks');
    assert.match(list.stdout, /^ptn_a\twhe_\w+\tactive\thttp:\/\/127\.0\.0\.1:\d+\/hooks\tcrew\.status\.changed\t/m);
    assert.ok(!list.stdout.includes(SECRET), 'list-webhooks never prints secrets');
  });

  it('register-webhook warns when a chosen secret cannot carry the Standard Webhooks headers', async () => {
    const res = await register(
      '--partner',
      'ptn_b',
      '--url',
      rx.url,
      '--events',
      'crew.status.changed',
      '--secret',
      'my-own-secret-of-the-partner',
    );
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /^warning: this secret is not of the Standard Webhooks form .*X-Service-Signature header only/m);
    const standard = await register('--partner', 'ptn_b', '--url', rx.url, '--events', 'crew.status.changed');
    assert.doesNotMatch(standard.stderr, /warning/);
  });

  it('register-webhook with a bad body exits 65 naming each problem', async () => {
    const res = await cli([
      '--db',
      url(),
      'admin',
      'register-webhook',
      '--partner',
      'ptn_a',
      '--url',
      'http://hooks.example/x',
      '--events',
      'crew.nope',
    ]);
    assert.equal(res.code, 65);
    assert.match(res.stderr, /--url: must use https/);
    assert.match(res.stderr, /--events value "crew\.nope": Input should be 'crew\.document\.processed'/);
    const unknown = await register('--partner', 'ptn_zz', '--url', rx.url, '--events', 'crew.status.changed');
    assert.match(unknown.stderr, /no partner with id "ptn_zz"/);
    assert.notEqual(unknown.code, 0);
  });

  it('sync delivers what the outbox holds and prints a summary per partner', async () => {
    await endpointOfA();
    const { eventId } = await seedEvent(store().db, 'ptn_a');
    const res = await svc('sync');
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^sync run_\w+: 0 created, 1 delivered, 0 retrying, 0 dead-lettered$/m);
    assert.match(res.stdout, /^partner\tcreated\tdelivered\tretrying\tdead_lettered\theld$/m);
    assert.match(res.stdout, /^ptn_a\t0\t1\t0\t0\t0$/m);
    assert.equal(rx.received.at(-1)?.eventId, eventId);
    const history = await svc('admin', 'deliveries', '--event', eventId);
    assert.match(
      history.stdout,
      /^attempted_at\tevent_id\tpartner_id\tevent_type\tattempt_no\toutcome\tstatus_code\tlatency_ms\terror\turl\tnext_attempt_at\n/,
    );
    assert.match(
      history.stdout,
      new RegExp(`^${wireTime(T0)}\\t${eventId}\\tptn_a\\tcrew\\.status\\.changed\\t1\\tdelivered\\t204\\t\\d+\\t-\\t`, 'm'),
    );
  });

  it('sync --dry-run lists what it would send and sends nothing', async () => {
    await endpointOfA();
    const before = rx.received.length;
    const { eventId } = await seedEvent(store().db, 'ptn_a');
    const res = await svc('sync', '--dry-run');
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^dry run run_\w+: nothing written, nothing sent$/m);
    assert.match(res.stdout, new RegExp(`^  ${eventId}\\tptn_a\\tcrew\\.status\\.changed\\tattempt 1\\t`, 'm'));
    assert.equal(rx.received.length, before);
    assert.equal((await findOutboxEvent(store().db, eventId))?.status, 'pending');
    await svc('sync');
  });

  it('sync exits 75 at once while another run holds the lock', async () => {
    const tc = testClock();
    await acquireLease(store().db, SYNC_LEASE, 'run_elsewhere', tc.iso(), '2099-01-01T00:00:00.000Z');
    const res = await svc('sync');
    assert.equal(res.code, 75);
    assert.match(res.stderr, /^svc: another sync run is in progress \(run_elsewhere\), lease held until 2099-01-01T00:00:00Z;/);
    assert.match(res.stderr, /clear it now with `svc admin release-sync-lock`/);
    await store().db.deleteFrom('leases').execute();
  });

  it('list-dead-letters and replay-dead-letters; the next sync delivers the replayed event', async () => {
    await endpointOfA();
    status = 422;
    const { eventId } = await seedEvent(store().db, 'ptn_a');
    assert.match((await svc('sync')).stdout, /1 dead-lettered/);
    const listed = await svc('admin', 'list-dead-letters', '--partner', 'ptn_a', '--event-type', 'crew.status.changed');
    assert.equal(
      listed.stdout,
      'event_id\tpartner_id\tevent_type\tdead_at\treplayed_at\treason\n' +
        `${eventId}\tptn_a\tcrew.status.changed\t${wireTime(T0)}\t-\tpermanent failure: HTTP 422\n`,
    );
    status = 204;
    const replay = await svc('admin', 'replay-dead-letters', '--partner', 'ptn_a', '--since', '2026-11-22');
    assert.equal(replay.code, 0, replay.stderr);
    assert.equal(replay.stdout, `event_id\tpartner_id\tevent_type\tdead_at\n${eventId}\tptn_a\tcrew.status.changed\t${wireTime(T0)}\n`);
    assert.match(replay.stderr, /replayed 1 dead letter/);
    assert.match((await svc('sync')).stdout, /1 delivered/);
    assert.equal(rx.received.at(-1)?.eventId, eventId);
    const bad = await svc('admin', 'replay-dead-letters', '--until', 'tomorrow');
    assert.equal(bad.code, 65);
  });

  it('revoke-key revokes (idempotently), --hard deletes, and operator keys are never hard-deleted', async () => {
    const db = store().db;
    const { record } = await issuePartnerKey(db, 'ptn_a', 'live', testClock().clock);
    const first = await svc('admin', 'revoke-key', '--partner', 'ptn_a', '--key', record.keyId);
    assert.match(first.stdout, new RegExp(`key ${record.keyId} \\(live, svc_live_…\\w{4}\\) of partner ptn_a revoked`));
    assert.equal((await findApiKey(db, record.keyId))?.status, 'revoked');
    assert.match((await svc('admin', 'revoke-key', '--partner', 'ptn_a', '--key', record.keyId)).stdout, /was already revoked/);
    assert.match((await svc('admin', 'revoke-key', '--partner', 'ptn_a', '--key', record.keyId, '--hard')).stdout, /deleted/);
    assert.equal(await findApiKey(db, record.keyId), undefined);
    const op = await issueOperatorKey(db, testClock().clock, { partnerId: 'ptn_a' });
    const refused = await svc('admin', 'revoke-key', '--partner', 'ptn_a', '--key', op.record.keyId, '--hard');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /operator keys are revoked, not deleted/);
    const other = await svc('admin', 'revoke-key', '--partner', 'ptn_b', '--key', op.record.keyId);
    assert.match(other.stderr, /partner ptn_b has no key/);
  });

  it('on a terminal, sync draws a progress line on standard error', async () => {
    await endpointOfA();
    await seedEvent(store().db, 'ptn_a');
    await seedEvent(store().db, 'ptn_a');
    const stdout = new PassThrough();
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    let err = '';
    stderr.on('data', (c) => (err += c));
    const code = await runCli(['--db', url(), 'sync'], { env, stdout, stderr, clock: testClock().clock });
    assert.equal(code, 0);
    assert.match(err, /\rdelivering 2 of 2 \(100%\) events: 2 delivered, 0 retrying, 0 dead-lettered\x1b\[K\n$/);
  });
});
