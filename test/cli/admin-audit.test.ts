import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { cli } from '../support/cli.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

const env = { SVC_ALLOW_INSECURE_WEBHOOKS: '1' };
const HOOK_SECRET = 'operator-chosen-secret-0123456789';

describeEachStore(
  'every state-changing admin command is audited',
  ({ store, url }) => {
    const svc = (...argv: string[]) => cli(['--db', url(), ...argv], env);
    before(async () => {
      assert.equal((await svc('db', 'migrate')).code, 0);
      assert.equal((await svc('fixtures', 'load', writeFixture(miniFixture()))).code, 0);
    });

    /** Runs a command and returns the one audit row it wrote (none were there before). */
    async function audited(argv: string[], expectedCode = 0) {
      const before = await store().db.selectFrom('audit_log').select('audit_id').execute();
      const res = await svc(...argv);
      assert.equal(res.code, expectedCode, res.stderr);
      const rows = await store().db.selectFrom('audit_log').selectAll().orderBy('audit_id').execute();
      assert.equal(rows.length, before.length + 1, `${argv.join(' ')}: exactly one audit row`);
      return { res, row: rows.at(-1)! };
    }

    function expectRow(
      row: Record<string, unknown>,
      route: string,
      fields: { partner_id: string | null; key_id: string | null; status: number },
    ) {
      assert.match(String(row.request_id), /^cli_[0-9a-f]{24}$/);
      assert.equal(row.method, 'CLI');
      assert.equal(row.route, route);
      assert.equal(row.path, route);
      assert.equal(row.partner_id, fields.partner_id);
      assert.equal(row.key_id, fields.key_id);
      assert.equal(row.status, fields.status);
      assert.equal(row.client_ip, null);
      assert.equal(row.crew_unique_id, null);
      assert.equal(row.document_id, null);
      assert.equal(row.at, '2026-11-22T10:00:00.000Z');
      assert.ok(Number(row.latency_ms) >= 0);
    }

    const keyIdOf = (stdout: string) => /^key_id (\S+)$/m.exec(stdout)![1]!;

    it("issue-key and issue-operator-key: status 0 with the issued key's id; an unknown partner 404", async () => {
      const partner = await audited(['admin', 'issue-key', '--partner', 'ptn_a', '--mode', 'test']);
      expectRow(partner.row, 'svc admin issue-key', { partner_id: 'ptn_a', key_id: keyIdOf(partner.res.stdout), status: 0 });
      const op = await audited(['admin', 'issue-operator-key']);
      expectRow(op.row, 'svc admin issue-operator-key', { partner_id: null, key_id: keyIdOf(op.res.stdout), status: 0 });
      const tied = await audited(['admin', 'issue-operator-key', '--partner', 'ptn_a']);
      expectRow(tied.row, 'svc admin issue-operator-key', { partner_id: 'ptn_a', key_id: keyIdOf(tied.res.stdout), status: 0 });

      const unknown = await audited(['admin', 'issue-key', '--partner', 'nobody'], 1);
      expectRow(unknown.row, 'svc admin issue-key', { partner_id: 'nobody', key_id: null, status: 404 });
      const unknownOp = await audited(['admin', 'issue-operator-key', '--partner', 'nobody'], 1);
      expectRow(unknownOp.row, 'svc admin issue-operator-key', { partner_id: 'nobody', key_id: null, status: 404 });
    });

    it('revoke-key: status 0 naming the key; unknown key 404; hard delete of an operator key 409', async () => {
      const issued = await svc('admin', 'issue-key', '--partner', 'ptn_a');
      const keyId = keyIdOf(issued.stdout);
      const revoked = await audited(['admin', 'revoke-key', '--partner', 'ptn_a', '--key', keyId]);
      expectRow(revoked.row, 'svc admin revoke-key', { partner_id: 'ptn_a', key_id: keyId, status: 0 });
      const hard = await audited(['admin', 'revoke-key', '--partner', 'ptn_a', '--key', keyId, '--hard']);
      expectRow(hard.row, 'svc admin revoke-key', { partner_id: 'ptn_a', key_id: keyId, status: 0 });

      const missing = await audited(['admin', 'revoke-key', '--partner', 'ptn_a', '--key', keyId], 1);
      expectRow(missing.row, 'svc admin revoke-key', { partner_id: 'ptn_a', key_id: keyId, status: 404 });
      const op = await svc('admin', 'issue-operator-key', '--partner', 'ptn_a');
      const opId = keyIdOf(op.stdout);
      const refused = await audited(['admin', 'revoke-key', '--partner', 'ptn_a', '--key', opId, '--hard'], 1);
      expectRow(refused.row, 'svc admin revoke-key', { partner_id: 'ptn_a', key_id: opId, status: 409 });
    });

    it('revoke-key without --partner revokes any key, an operator key of no partner included; a wrong --partner is refused', async () => {
      const op = await svc('admin', 'issue-operator-key');
      const opId = keyIdOf(op.stdout);
      const wrong = await audited(['admin', 'revoke-key', '--partner', 'ptn_a', '--key', opId], 1);
      expectRow(wrong.row, 'svc admin revoke-key', { partner_id: 'ptn_a', key_id: opId, status: 404 });
      const keyStatus = async (id: string) =>
        (await store().db.selectFrom('api_keys').select('status').where('key_id', '=', id).executeTakeFirst())?.status;
      assert.equal(await keyStatus(opId), 'active');
      const revoked = await audited(['admin', 'revoke-key', '--key', opId]);
      expectRow(revoked.row, 'svc admin revoke-key', { partner_id: null, key_id: opId, status: 0 });
      assert.match(revoked.res.stdout, new RegExp(`key ${opId} \\(operator, .*\\) of no partner revoked`));
      assert.equal(await keyStatus(opId), 'revoked');

      const issued = await svc('admin', 'issue-key', '--partner', 'ptn_a');
      const keyId = keyIdOf(issued.stdout);
      const byId = await audited(['admin', 'revoke-key', '--key', keyId]);
      expectRow(byId.row, 'svc admin revoke-key', { partner_id: 'ptn_a', key_id: keyId, status: 0 });
      assert.equal(await keyStatus(keyId), 'revoked');
    });

    it('register-webhook: status 0 when created or rotated; an invalid body 422, an unknown partner 404', async () => {
      const events = 'crew.status.changed';
      const created = await audited([
        'admin',
        'register-webhook',
        '--partner',
        'ptn_a',
        '--url',
        'http://127.0.0.1:9/hook',
        '--events',
        events,
      ]);
      expectRow(created.row, 'svc admin register-webhook', { partner_id: 'ptn_a', key_id: null, status: 0 });
      assert.match(JSON.parse(created.res.stdout).secret, /^whsec_/);
      const rotated = await audited([
        'admin',
        'register-webhook',
        '--partner',
        'ptn_a',
        '--url',
        'http://127.0.0.1:9/other',
        '--events',
        events,
        '--secret',
        HOOK_SECRET,
      ]);
      expectRow(rotated.row, 'svc admin register-webhook', { partner_id: 'ptn_a', key_id: null, status: 0 });

      const invalid = await audited(
        ['admin', 'register-webhook', '--partner', 'ptn_a', '--url', 'ftp://x.example/', '--events', 'crew.nope'],
        65,
      );
      expectRow(invalid.row, 'svc admin register-webhook', { partner_id: 'ptn_a', key_id: null, status: 422 });
      const unknown = await audited(
        ['admin', 'register-webhook', '--partner', 'nobody', '--url', 'http://127.0.0.1:9/hook', '--events', events],
        1,
      );
      expectRow(unknown.row, 'svc admin register-webhook', { partner_id: 'nobody', key_id: null, status: 404 });
    });

    it('replay-dead-letters: status 0 (also when nothing matched), a bad filter 422', async () => {
      const replayed = await audited(['admin', 'replay-dead-letters', '--partner', 'ptn_a']);
      expectRow(replayed.row, 'svc admin replay-dead-letters', { partner_id: 'ptn_a', key_id: null, status: 0 });
      const all = await audited(['admin', 'replay-dead-letters']);
      expectRow(all.row, 'svc admin replay-dead-letters', { partner_id: null, key_id: null, status: 0 });
      const bad = await audited(['admin', 'replay-dead-letters', '--event-type', 'crew.nope'], 65);
      expectRow(bad.row, 'svc admin replay-dead-letters', { partner_id: null, key_id: null, status: 422 });
    });

    it('read-only commands write no audit row', async () => {
      const count = async () => (await store().db.selectFrom('audit_log').select('audit_id').execute()).length;
      const before = await count();
      for (const argv of [
        ['admin', 'list-keys'],
        ['admin', 'list-webhooks'],
        ['admin', 'list-dead-letters'],
        ['admin', 'deliveries'],
      ]) {
        assert.equal((await svc(...argv)).code, 0, argv.join(' '));
      }
      assert.equal(await count(), before);
    });

    it('no key and no secret reaches the audit log', async () => {
      const hook = [
        'admin',
        'register-webhook',
        '--partner',
        'ptn_a',
        '--url',
        'http://127.0.0.1:9/hook',
        '--events',
        'crew.status.changed',
      ];
      const printed: string[] = [];
      for (const argv of [
        ['admin', 'issue-key', '--partner', 'ptn_a', '--mode', 'test'],
        ['admin', 'issue-key', '--partner', 'ptn_a'],
        ['admin', 'issue-operator-key'],
        hook,
        [...hook, '--secret', HOOK_SECRET],
      ]) {
        printed.push((await audited(argv)).res.stdout);
      }
      const secrets = printed.flatMap((out) => out.match(/svc_(?:live|test|op)_\w+|whsec_[A-Za-z0-9+/=]+/g) ?? []);
      assert.equal(secrets.length, 4, `secrets printed: ${secrets.length}`);
      const everything = JSON.stringify(await store().db.selectFrom('audit_log').selectAll().execute());
      for (const secret of [...secrets, HOOK_SECRET]) assert.ok(!everything.includes(secret), 'a key or secret in the audit log');
    });
  },
  { migrate: false },
);
