import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { wireTime } from '../../src/domain/clock.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { cli } from '../support/cli.ts';
import { seedWorld } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { SECRET, seedEvent, seedPartners } from '../support/sync-world.ts';

const env = { SVC_ALLOW_INSECURE_WEBHOOKS: '1' };

describeEachStore('admin commands refuse ids that name nothing, and say what is due and what was replayed', ({ store, url }) => {
  let status = 503;
  let rx: Receiver;
  const svc = (...argv: string[]) => cli(['--db', url(), ...argv], env);
  before(async () => {
    await seedPartners(store().db, 'ptn_a');
    rx = await startReceiver(SECRET, () => ({ status }));
    assert.equal(
      (await svc('admin', 'register-webhook', '--partner', 'ptn_a', '--url', rx.url, '--events', 'crew.status.changed', '--secret', SECRET))
        .code,
      0,
    );
  });
  after(async () => rx.close());

  it('every admin command given an unknown partner says `no partner with id "…"`, exits non-zero and changes nothing', async () => {
    const keys = () => store().db.selectFrom('api_keys').select('key_id').execute();
    const before = await keys();
    for (const argv of [
      ['replay-dead-letters'],
      ['list-dead-letters'],
      ['deliveries'],
      ['list-keys'],
      ['audit'],
      ['issue-key'],
      ['issue-operator-key'],
      ['revoke-key', '--key', 'key_nope'],
      ['rotate-secret'],
      ['register-webhook', '--url', rx.url, '--events', 'crew.status.changed'],
    ]) {
      for (const json of argv[0]!.startsWith('list') || ['deliveries', 'audit', 'replay-dead-letters'].includes(argv[0]!)
        ? [[], ['--json']]
        : [[]]) {
        const res = await svc('admin', ...argv, '--partner', 'ptn_nope', ...json);
        assert.equal(res.code, 1, `${argv[0]}: ${res.stderr}`);
        assert.equal(res.stdout, '', argv[0]);
        assert.equal(res.stderr, 'svc: no partner with id "ptn_nope"\n', argv[0]);
      }
    }
    assert.deepEqual(await keys(), before);
  });

  it('an unknown key or event id is refused the same way', async () => {
    const key = await svc('admin', 'revoke-key', '--key', 'key_nope');
    assert.deepEqual([key.code, key.stderr], [1, 'svc: no key with id "key_nope"\n']);
    const event = await svc('admin', 'deliveries', '--event', 'evt_nope');
    assert.deepEqual([event.code, event.stdout, event.stderr], [1, '', 'svc: no event with id "evt_nope"\n']);
  });

  it('key labels holding terminal control characters are refused at issue time, and no key is issued', async () => {
    for (const label of ['clear\x1b[2J', 'two\nlines', 'bell\x07', 'c1\x9b31m']) {
      for (const argv of [['issue-key', '--partner', 'ptn_a'], ['issue-operator-key']]) {
        const res = await svc('admin', ...argv, '--label', label);
        assert.equal(res.code, 65, res.stderr);
        assert.equal(res.stdout, '');
        assert.match(
          res.stderr,
          /^svc: the key label may not hold control characters \(U\+[0-9A-F]{4} at character \d+\); use printable text\n$/,
        );
      }
    }
    assert.deepEqual(await store().db.selectFrom('api_keys').select('key_id').execute(), []);
    const ok = await svc('admin', 'issue-key', '--partner', 'ptn_a', '--label', 'Büro – ops ✓');
    assert.equal(ok.code, 0, ok.stderr);
  });

  it('deliveries shows when the next attempt is due (table and --json), empty once the event is delivered', async () => {
    status = 503;
    // Two attempts made already: the run makes the third, its last in-run one, and keeps the retry
    // for a later run, without waiting out the 2 s and 8 s between in-run attempts.
    const { eventId } = await seedEvent(store().db, 'ptn_a', { attempts: 2 });
    assert.equal((await svc('sync')).code, 79, 'the endpoint failed, nothing dead: README, exit codes');
    const due = (await findOutboxEvent(store().db, eventId))!.nextAttemptAt;
    const json = JSON.parse((await svc('admin', 'deliveries', '--event', eventId, '--json')).stdout) as Record<string, unknown>[];
    assert.ok(json.length >= 1);
    assert.ok(
      json.every((a) => a.next_attempt_at === wireTime(due)),
      JSON.stringify(json),
    );
    const [header, first] = (await svc('admin', 'deliveries', '--event', eventId)).stdout.split('\n');
    assert.equal(header!.split('\t').at(-1), 'next_attempt_at');
    assert.equal(first!.split('\t').at(-1), wireTime(due));

    // The persisted retry made due at the CLI's fixed clock, and answered this time.
    status = 204;
    await store()
      .db.updateTable('outbox_events')
      .set({ next_attempt_at: '2026-11-22T09:00:00.000Z' })
      .where('event_id', '=', eventId)
      .execute();
    assert.equal((await svc('sync')).code, 0);
    const after = JSON.parse((await svc('admin', 'deliveries', '--event', eventId, '--json')).stdout) as Record<string, unknown>[];
    assert.equal(after[0]!.outcome, 'delivered');
    assert.ok(after.every((a) => a.next_attempt_at === null));
  });

  it('replay-dead-letters prints a header row (or --json), and no "run svc sync" hint when nothing was replayed', async () => {
    status = 422;
    const { eventId } = await seedEvent(store().db, 'ptn_a');
    assert.equal((await svc('sync')).code, 76);
    const letter = JSON.parse((await svc('admin', 'list-dead-letters', '--json')).stdout).find(
      (d: { event_id: string }) => d.event_id === eventId,
    );
    const replayed = await svc('admin', 'replay-dead-letters', '--partner', 'ptn_a');
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, `event_id\tpartner_id\tevent_type\tdead_at\n${eventId}\tptn_a\tcrew.status.changed\t${letter.dead_at}\n`);
    assert.match(replayed.stderr, /^replayed 1 dead letter\(s\); run `svc sync` to deliver them now\n$/);

    assert.equal((await svc('sync')).code, 76, 'dead-lettered again');
    const json = await svc('admin', 'replay-dead-letters', '--json');
    assert.deepEqual(
      JSON.parse(json.stdout).map((d: Record<string, unknown>) => Object.keys(d)),
      [['event_id', 'partner_id', 'event_type', 'dead_at']],
    );

    for (const extra of [[], ['--json']]) {
      const none = await svc('admin', 'replay-dead-letters', ...extra);
      assert.equal(none.code, 0, none.stderr);
      assert.equal(none.stdout, extra.length ? '[]\n' : '');
      assert.equal(none.stderr, 'no dead letters match: nothing replayed\n');
    }
  });
});

describeEachStore('svc compliance check of a crew member who does not exist says so', ({ store, url }) => {
  before(async () => seedWorld(store().db));

  it('unknown: `no crew member with id`; known but signed off everywhere: no current assignment', async () => {
    const unknown = await cli(['--db', url(), 'compliance', 'check', 'crew_9999']);
    assert.deepEqual([unknown.code, unknown.stdout, unknown.stderr], [1, '', 'svc: no crew member with id "crew_9999"\n']);
    await store().db.updateTable('assignments').set({ status: 'signed_off' }).where('crew_unique_id', '=', 'crew_1').execute();
    const gone = await cli(['--db', url(), 'compliance', 'check', 'crew_1']);
    assert.deepEqual([gone.code, gone.stderr], [1, 'svc: crew member crew_1 has no current assignment\n']);
  });
});
