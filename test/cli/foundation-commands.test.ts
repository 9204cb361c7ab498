import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { hashKey, parseKey } from '../../src/domain/api-keys.ts';
import { openStore } from '../../src/store/connect.ts';
import { cli } from '../support/cli.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

it('bin/svc --help lists the commands', async () => {
  const { stdout } = await promisify(execFile)('bin/svc', ['--help']);
  for (const name of ['serve', 'sync', 'admin', 'db', 'fixtures'])
    assert.match(stdout, new RegExp(`^  ${name}\\b`, 'm'), `missing ${name}`);
});

describeEachStore(
  'the command line on a store',
  ({ url }) => {
    it('a command on an unmigrated store says so and how to fix it', async () => {
      const res = await cli(['--db', url(), 'admin', 'list-keys']);
      assert.equal(res.code, 78);
      assert.match(res.stderr, /not migrated.*svc db migrate/);
    });

    it('db migrate, then db status reports up to date', async () => {
      assert.equal((await cli(['--db', url(), 'db', 'migrate'])).code, 0);
      const status = await cli(['--db', url(), 'db', 'status']);
      assert.equal(status.code, 0);
      assert.match(status.stdout, /up to date/);
      assert.match(status.stdout, /^applied \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}0001-initial$/m, 'times as on the wire: whole seconds, Z');
    });

    it('fixtures load reports what it loaded; a bad file exits non-zero naming the path', async () => {
      assert.equal((await cli(['--db', url(), 'db', 'migrate'])).code, 0);
      const ok = await cli(['--db', url(), 'fixtures', 'load', writeFixture(miniFixture())]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /2 crew/);
      const bad = miniFixture();
      bad.partners[0].tier = 'gold';
      const res = await cli(['--db', url(), 'fixtures', 'load', writeFixture(bad)]);
      assert.equal(res.code, 65);
      assert.match(res.stderr, /partners\[0\]\.tier: /);
    });

    it('issue-key prints the full key once, as the last line, and the store holds only its hash', async () => {
      assert.equal((await cli(['--db', url(), 'db', 'migrate'])).code, 0);
      assert.equal((await cli(['--db', url(), 'fixtures', 'load', writeFixture(miniFixture())])).code, 0);
      const res = await cli(['--db', url(), 'admin', 'issue-key', '--partner', 'ptn_a', '--mode', 'test']);
      assert.equal(res.code, 0, res.stderr);
      const key = res.stdout.trimEnd().split('\n').at(-1)!;
      const parsed = parseKey(key);
      assert.ok(parsed.ok && parsed.kind === 'test', key);
      const store = await openStore(url());
      try {
        const rows = await store.db.selectFrom('api_keys').selectAll().execute();
        assert.equal(rows.length, 1);
        assert.equal(rows[0]!.key_hash, hashKey(key));
        assert.ok(!JSON.stringify(rows).includes(key));
      } finally {
        await store.close();
      }
      const op = await cli(['--db', url(), 'admin', 'issue-operator-key']);
      assert.ok(op.stdout.trimEnd().split('\n').at(-1)!.startsWith('svc_op_'));
    });

    it('issue-key for an unknown partner fails with a clear message', async () => {
      assert.equal((await cli(['--db', url(), 'db', 'migrate'])).code, 0);
      const res = await cli(['--db', url(), 'admin', 'issue-key', '--partner', 'nobody']);
      assert.notEqual(res.code, 0);
      assert.match(res.stderr, /no partner with id "nobody"/);
    });
  },
  { migrate: false },
);
