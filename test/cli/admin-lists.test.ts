import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { cli, cliChild } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { SECRET, seedEvent, seedPartners } from '../support/sync-world.ts';

const env = { SVC_ALLOW_INSECURE_WEBHOOKS: '1' };

/** A table's lines: the header row's names, then each row as an object of strings. */
function table(stdout: string): { header: string[]; rows: Record<string, string>[] } {
  const [head, ...lines] = stdout.trimEnd().split('\n');
  const header = head!.split('\t');
  return { header, rows: lines.map((l) => Object.fromEntries(l.split('\t').map((c, i) => [header[i]!, c]))) };
}

describeEachStore(
  'list commands: a header row, --json, and an empty result said on stderr',
  ({ store, url }) => {
    // The receiver refuses everything for good: one sync leaves an attempt and a dead letter to list.
    let rx: Receiver;
    before(async () => {
      rx = await startReceiver(SECRET, () => ({ status: 422 }));
    });
    after(() => rx.close());
    // Each test has a store of its own (an empty list, exact counts), holding these two partners.
    beforeEach(() => seedPartners(store().db, 'ptn_a', 'ptn_b'));
    const svc = (...argv: string[]) => cli(['--db', url(), ...argv], env);
    const registerHook = () =>
      svc('admin', 'register-webhook', '--partner', 'ptn_a', '--url', rx.url, '--events', 'crew.status.changed', '--secret', SECRET);
    /** A live key of ptn_a and an operator key of no partner. */
    async function issueKeys(): Promise<void> {
      assert.equal((await svc('admin', 'issue-key', '--partner', 'ptn_a')).code, 0);
      assert.equal((await svc('admin', 'issue-operator-key')).code, 0);
    }
    /** An event for ptn_a that the refusing receiver turns, in one sync, into an attempt and a dead letter. */
    async function deadLetter(): Promise<void> {
      assert.equal((await registerHook()).code, 0);
      await seedEvent(store().db, 'ptn_a');
      assert.equal((await svc('sync')).code, 76);
    }

    it('every list command on an empty store: nothing (table) or [] (--json) on stdout, and why on stderr, exit 0', async () => {
      for (const [argv, message] of [
        [['admin', 'list-keys'], /^no keys$/],
        [['admin', 'list-keys', '--partner', 'ptn_a'], /^partner ptn_a has no keys$/],
        [['admin', 'list-webhooks'], /^no webhook endpoints registered$/],
        [['admin', 'deliveries'], /^no delivery attempts match$/],
        [['admin', 'list-dead-letters'], /^no dead letters match$/],
        [['admin', 'audit'], /^no audit rows match$/],
      ] as const) {
        const plain = await svc(...argv);
        assert.equal(plain.code, 0, plain.stderr);
        assert.equal(plain.stdout, '', argv.join(' '));
        assert.match(plain.stderr.trim(), message);
        const json = await svc(...argv, '--json');
        assert.equal(json.code, 0, json.stderr);
        assert.deepEqual(JSON.parse(json.stdout), []);
        assert.match(json.stderr.trim(), message);
      }
    });

    it('list-keys: header row and --json carry the same fields; never the key', async () => {
      const issued = await svc('admin', 'issue-key', '--partner', 'ptn_a', '--label', 'two words');
      const key = issued.stdout.trimEnd().split('\n').at(-1)!;
      await svc('admin', 'issue-operator-key');
      const plain = await svc('admin', 'list-keys');
      const { header, rows } = table(plain.stdout);
      assert.deepEqual(header, ['key_id', 'partner_id', 'kind', 'status', 'key_hint', 'created_at', 'revoked_at', 'label']);
      assert.equal(rows.length, 2);
      const json = JSON.parse((await svc('admin', 'list-keys', '--json')).stdout) as Record<string, unknown>[];
      assert.deepEqual(
        json.map((k) => Object.keys(k)),
        [header, header],
      );
      const live = json.find((k) => k.kind === 'live')!;
      assert.equal(live.partner_id, 'ptn_a');
      assert.equal(live.label, 'two words');
      assert.equal(live.revoked_at, null);
      assert.equal(live.key_hint, `svc_live_…${key.slice(-4)}`);
      const op = rows.find((r) => r.kind === 'operator')!;
      assert.equal(op.partner_id, '-');
      assert.ok(!plain.stdout.includes(key) && !JSON.stringify(json).includes(key));
    });

    it('list-webhooks --json: one object per endpoint with its events as an array, never the secret', async () => {
      assert.equal((await registerHook()).code, 0);
      const json = JSON.parse((await svc('admin', 'list-webhooks', '--json')).stdout);
      assert.equal(json.length, 1);
      assert.deepEqual(Object.keys(json[0]), [
        'partner_id',
        'endpoint_id',
        'status',
        'url',
        'subscribed_events',
        'updated_at',
        'rotation_pending_until',
        'signatures',
        'public_keys',
        'consecutive_failures',
        'failing_since',
        'last_success_at',
        'disabled_reason',
        'disabled_at',
      ]);
      assert.deepEqual([json[0].consecutive_failures, json[0].disabled_reason], [0, null]);
      assert.deepEqual(json[0].subscribed_events, ['crew.status.changed']);
      const plain = await svc('admin', 'list-webhooks');
      assert.equal(table(plain.stdout).rows[0]!.subscribed_events, 'crew.status.changed');
      assert.ok(!plain.stdout.includes(SECRET));
    });

    it('sync --json: the summary as one object; deliveries and list-dead-letters --json list what happened', async () => {
      assert.equal((await registerHook()).code, 0);
      const { eventId } = await seedEvent(store().db, 'ptn_a');
      const res = await svc('sync', '--json');
      assert.equal(res.code, 76, res.stderr);
      const summary = JSON.parse(res.stdout);
      assert.match(summary.run_id, /^run_/);
      assert.equal(summary.dry_run, false);
      assert.equal(summary.totals.dead_lettered, 1);
      assert.deepEqual(
        summary.partners.find((p: { partner_id: string }) => p.partner_id === 'ptn_a'),
        {
          partner_id: 'ptn_a',
          created: 0,
          delivered: 0,
          retrying: 0,
          dead_lettered: 1,
          suppressed: 0,
          held: 0,
        },
      );
      assert.deepEqual(summary.errors, []);

      const attempts = JSON.parse((await svc('admin', 'deliveries', '--event', eventId, '--json')).stdout);
      assert.equal(attempts.length, 1);
      assert.deepEqual(
        { ...attempts[0], latency_ms: 0 },
        {
          attempted_at: '2026-11-22T10:00:00Z',
          event_id: eventId,
          partner_id: 'ptn_a',
          event_type: 'crew.status.changed',
          attempt_no: 1,
          outcome: 'failed_permanent',
          status_code: 422,
          latency_ms: 0,
          error: attempts[0].error,
          url: rx.url,
          next_attempt_at: null,
        },
      );
      const plainAttempts = table((await svc('admin', 'deliveries', '--event', eventId)).stdout);
      assert.deepEqual(plainAttempts.header, Object.keys(attempts[0]));
      assert.equal(plainAttempts.rows[0]!.status_code, '422');

      const letters = JSON.parse((await svc('admin', 'list-dead-letters', '--partner', 'ptn_a', '--json')).stdout);
      assert.deepEqual(
        letters.map((d: Record<string, unknown>) => ({ ...d, reason: typeof d.reason })),
        [
          {
            event_id: eventId,
            partner_id: 'ptn_a',
            event_type: 'crew.status.changed',
            dead_at: letters[0].dead_at,
            replayed_at: null,
            reason: 'string',
          },
        ],
      );
      const dry = JSON.parse((await svc('sync', '--dry-run', '--json')).stdout);
      assert.equal(dry.dry_run, true);
      assert.deepEqual(dry.would_attempt, []);
      assert.ok(Array.isArray(dry.would_create));
    });

    it('every time a list command prints has the precision of the wire: UTC, whole seconds, Z (table and --json)', async () => {
      const WIRE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
      await issueKeys();
      await deadLetter();
      for (const [argv, columns] of [
        [['admin', 'list-keys'], ['created_at']],
        [['admin', 'list-webhooks'], ['updated_at']],
        [['admin', 'deliveries'], ['attempted_at']],
        [['admin', 'list-dead-letters'], ['dead_at']],
        [['admin', 'audit'], ['at']],
      ] as const) {
        const json = JSON.parse((await svc(...argv, '--json')).stdout) as Record<string, unknown>[];
        const { rows } = table((await svc(...argv)).stdout);
        assert.ok(json.length > 0 && rows.length === json.length, argv.join(' '));
        for (const c of columns) {
          for (const v of [...json.map((r) => r[c]), ...rows.map((r) => r[c])]) assert.match(String(v), WIRE, `${argv.join(' ')}: ${c}`);
        }
      }
      const replayed = await svc('admin', 'replay-dead-letters', '--partner', 'ptn_a');
      assert.equal(replayed.code, 0, replayed.stderr);
      assert.match(table(replayed.stdout).rows[0]!.dead_at!, WIRE, 'replay-dead-letters: dead at');
      const [letter] = JSON.parse((await svc('admin', 'list-dead-letters', '--json')).stdout);
      assert.equal(letter.replayed_at, '2026-11-22T10:00:00Z');
    });

    it('through bin/svc: --json is the whole of stdout, the empty-result note only on stderr', async () => {
      await issueKeys();
      const some = await cliChild(['--db', url(), 'admin', 'list-keys', '--json']);
      assert.equal(some.code, 0, some.stderr);
      assert.equal(JSON.parse(some.stdout).length, 2);
      assert.equal(some.stderr, '');
      const none = await cliChild(['--db', url(), 'admin', 'list-keys', '--partner', 'ptn_b', '--json']);
      assert.equal(none.stdout, '[]\n');
      assert.equal(none.stderr, 'partner ptn_b has no keys\n');
    });
  },
  { storePerTest: true },
);
