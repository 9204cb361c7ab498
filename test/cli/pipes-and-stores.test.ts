import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cli, cliChild } from '../support/cli.ts';
import { svcCommand } from '../support/svc-build.ts';
import { PG_ADMIN_URL, describeEachStore } from '../support/stores.ts';

describe('a closed standard output', () => {
  it('ends a command quietly: exit 0, no stack trace (svc admin list-keys | head -1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pipe-'));
    const db = `sqlite:${join(dir, 'svc.db')}`;
    assert.equal((await cliChild(['--db', db, 'db', 'migrate', '--no-catalogue'])).code, 0);
    for (let i = 0; i < 3; i++) assert.equal((await cliChild(['--db', db, 'admin', 'issue-operator-key'])).code, 0);
    const svc = svcCommand();
    const child = spawn(svc.command, [...svc.args, '--db', db, 'admin', 'list-keys'], {
      env: { ...process.env, ...svc.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes away before the command writes its first line.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});

describe('reading commands never create a store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-nostore-'));
  const path = join(dir, 'mistyped', 'svc.db');
  const db = `sqlite:${path}`;
  const reading: string[][] = [
    ['admin', 'list-keys'],
    ['admin', 'list-webhooks'],
    ['admin', 'deliveries'],
    ['admin', 'list-dead-letters'],
    ['db', 'status'],
    ['sync'],
    ['compliance', 'check', 'crew_1'],
    ['fixtures', 'load', 'fixtures/demo.json'],
    ['admin', 'issue-key', '--partner', 'ptn_a'],
    ['serve', '--port', '0'],
  ];
  for (const argv of reading) {
    it(`svc ${argv.join(' ')} on a missing SQLite file says no store exists there, exit 69`, async () => {
      const res = await cli(['--db', db, ...argv]);
      assert.equal(res.code, 69, res.stderr);
      assert.match(res.stderr, /no store exists at sqlite:.*mistyped\/svc\.db .*svc db migrate/);
      assert.equal(existsSync(join(dir, 'mistyped')), false, 'no folder created');
    });
  }

  it('db migrate creates the store and its folder; then reading commands work', async () => {
    assert.equal((await cli(['--db', db, 'db', 'migrate', '--no-catalogue'])).code, 0);
    assert.ok(existsSync(path));
    const res = await cli(['--db', db, 'db', 'status']);
    assert.equal(res.code, 0, res.stderr);
  });
});

describe('store errors name the store', () => {
  it('a Postgres store that cannot be opened is named, without its password', async () => {
    const url = new URL(PG_ADMIN_URL);
    url.username = 'svc_nobody';
    url.password = 'hunter2-secret';
    url.pathname = '/svc_missing_hard_cli';
    const res = await cli(['--db', url.toString(), 'admin', 'list-keys']);
    assert.equal(res.code, 69, res.stderr);
    assert.ok(res.stderr.includes(`postgres://svc_nobody:***@${url.host}/svc_missing_hard_cli`), res.stderr);
    assert.ok(!res.stderr.includes('hunter2-secret'));
  });
});

describeEachStore(
  'an unmigrated store is named in the error',
  ({ url }) => {
    it('svc admin list-keys on it exits 78 naming the store and svc db migrate', async () => {
      const res = await cli(['--db', url(), 'admin', 'list-keys']);
      assert.equal(res.code, 78);
      const shown = url().replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
      assert.ok(res.stderr.includes(`${shown} is not migrated`), res.stderr);
      assert.match(res.stderr, /svc db migrate/);
    });
  },
  { migrate: false },
);
