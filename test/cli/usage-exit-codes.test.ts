import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliChild } from '../support/cli.ts';

// Every one of these is refused before a store is opened: the store named does not exist and
// must not be created.
const dir = mkdtempSync(join(tmpdir(), 'svc-usage-'));
const db = `sqlite:${join(dir, 'never', 'svc.db')}`;

describe('bad usage exits 64 in every command', () => {
  const cases: string[][] = [
    ['nope'],
    ['--nope', 'db', 'status'],
    ['admin'],
    ['admin', 'nope'],
    ['admin', 'list-keys', '--nope'],
    ['admin', 'issue-key'],
    ['admin', 'issue-key', '--partner', 'p', '--mode', 'sideways'],
    ['admin', 'revoke-key'],
    ['admin', 'register-webhook', '--partner', 'p', '--url', 'https://x.example/'],
    ['admin', 'list-dead-letters', '--limit', '-1'],
    ['admin', 'list-dead-letters', '--limit', 'ten'],
    ['admin', 'deliveries', '--limit', '0'],
    ['db'],
    ['db', 'nope'],
    ['db', 'migrate', '--nope'],
    ['fixtures', 'load'],
    ['fixtures', 'generate', '--crew', '10', '--vessels', '2'],
    ['fixtures', 'generate', '--crew', '1.5', '--vessels', '2', '--partners', '1'],
    ['compliance', 'check'],
    ['compliance', 'nope'],
    ['serve', '--port', 'abc'],
    ['serve', '--port', '70000'],
    ['serve', '--tls-cert', 'cert.pem'],
    ['sync', '--nope'],
  ];
  for (const argv of cases) {
    it(`svc ${argv.join(' ')}`, async () => {
      const res = await cli(['--db', db, ...argv]);
      assert.equal(res.code, 64, res.stderr);
      assert.notEqual(res.stderr, '', 'says what was wrong');
    });
  }

  it('help and version are not errors', async () => {
    assert.equal((await cli(['--help'])).code, 0);
    assert.equal((await cli(['admin', '--help'])).code, 0);
    assert.equal((await cli(['--version'])).code, 0);
  });

  it('nothing was created at the store path', () => {
    assert.equal(existsSync(join(dir, 'never')), false);
  });
});

describe('bad settings exit like bad flags', () => {
  it('SVC_PORT=abc and --port abc both exit 64, each naming the setting', async () => {
    const [flag, env, store] = await Promise.all([
      cliChild(['--db', db, 'serve', '--port', 'abc']),
      cliChild(['--db', db, 'serve'], { SVC_PORT: 'abc' }),
      cliChild(['--db', 'mysql://x', 'admin', 'list-keys']),
    ]);
    assert.equal(flag.code, 64, flag.stderr);
    assert.match(flag.stderr, /--port/);
    assert.equal(env.code, 64, env.stderr);
    assert.match(env.stderr, /SVC_PORT/);
    assert.equal(store.code, 64, store.stderr);
    assert.match(store.stderr, /sqlite:PATH nor postgres/);
  });

  it('a nested unknown command and a missing required option exit 64 from bin/svc too', async () => {
    const [nested, missing] = await Promise.all([cliChild(['--db', db, 'admin', 'nope']), cliChild(['--db', db, 'admin', 'issue-key'])]);
    assert.equal(nested.code, 64, nested.stderr);
    assert.match(nested.stderr, /unknown command 'nope'/);
    assert.equal(missing.code, 64, missing.stderr);
    assert.match(missing.stderr, /--partner/);
  });

  it('a busy port exits 64 and names SVC_PORT and --port', async (t) => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    t.after(() => blocker.close());
    const taken = (blocker.address() as AddressInfo).port;
    const migrated = `sqlite:${join(dir, 'served.db')}`;
    assert.equal((await cliChild(['--db', migrated, 'db', 'migrate', '--no-catalogue'])).code, 0);
    const res = await cliChild(['--db', migrated, 'serve', '--port', String(taken)]);
    assert.equal(res.code, 64, res.stderr);
    assert.match(res.stderr, new RegExp(`127\\.0\\.0\\.1:${taken}.*in use.*SVC_PORT.*--port`));
  });
});
