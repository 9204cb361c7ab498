import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { shellBlocks } from '../support/doc-examples.ts';
import { startServeChild } from '../support/serve-child.ts';
import { ROOT } from '../support/source-digest.ts';
import { adminQuery, createPostgresStoreUrl, PG_ADMIN_URL, postgresRuns, type TestStore } from '../support/stores.ts';

/**
 * docs/operations.md, "Backups and retention", Postgres: the two blocks the page shows, run by bash
 * as written. Only the values of each block's leading `name=value` lines are replaced, since they
 * name the operator's files and server: the dump goes to a temporary folder, the server is the
 * test's Postgres, the restored database gets a name of its own (other runs share the server).
 */
function documentedBlocks(): { backup: string; restore: string } {
  const blocks = shellBlocks(join(ROOT, 'docs/operations.md'), ROOT).filter((b) => b.reason?.includes('postgres-backup.test.ts'));
  assert.equal(blocks.length, 2, 'docs/operations.md shows a backup block and a restore block run by this test');
  return { backup: blocks[0]!.code, restore: blocks[1]!.code };
}

/** The block with the values of its leading assignments replaced; every one of them must be replaced. */
function withValues(code: string, values: Record<string, string>): string {
  const lines = code.split('\n');
  const assigned: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^([a-z_]+)=(\S.*?)(\s+#.*)?$/.exec(lines[i]!);
    if (!m) break;
    assigned.push(m[1]!);
    assert.ok(m[1]! in values, `the test has a value for ${m[1]}=`);
    lines[i] = `${m[1]}='${values[m[1]!]}'`;
  }
  assert.deepEqual(assigned.sort(), Object.keys(values).sort(), 'the block assigns exactly what the test replaces');
  return lines.join('\n');
}

function bash(code: string, env: Record<string, string>) {
  return spawnSync('bash', ['-euo', 'pipefail', '-c', code], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

describe(
  'docs/operations.md: a Postgres backup with pg_dump, restored with pg_restore',
  { skip: !postgresRuns() && 'Postgres does not answer' },
  () => {
    let source: TestStore;
    let dir: string;
    const restoredName = `svc_restored_${randomBytes(6).toString('hex')}`;
    const admin = new URL(PG_ADMIN_URL);
    const server = `postgres://${admin.username}@${admin.host}`;

    before(async () => {
      source = await createPostgresStoreUrl({ migrated: true });
      dir = mkdtempSync(join(tmpdir(), 'svc-pg-backup-'));
    });

    after(async () => {
      await adminQuery(`drop database if exists ${restoredName} with (force)`);
      await source.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the restored database serves what the dump held: the demo data and the key issued before it, not the one after', async () => {
      const svc = (...argv: string[]) => cliChild(['--db', source.url, ...argv]);
      assert.equal((await svc('fixtures', 'load', 'fixtures/demo.json')).code, 0);
      const before = await svc('admin', 'issue-key', '--partner', 'ptn_northsea_mgmt');
      assert.equal(before.code, 0, before.stderr);
      const blocks = documentedBlocks();
      const dump = join(dir, 'svc.dump');

      const backedUp = bash(withValues(blocks.backup, { backup: dump }), { SVC_DATABASE_URL: source.url });
      assert.equal(backedUp.status, 0, backedUp.stderr);
      const later = await svc('admin', 'issue-key', '--partner', 'ptn_northsea_mgmt');
      assert.equal(later.code, 0, later.stderr);

      const restored = bash(withValues(blocks.restore, { backup: dump, server, name: restoredName }), {});
      assert.equal(restored.status, 0, restored.stderr);
      assert.match(restored.stdout, new RegExp(`/${restoredName}: up to date\\n$`));

      const serve = await startServeChild(`${server}/${restoredName}`, {}, 60_000);
      try {
        const call = (key: string, path: string) => fetch(`${serve.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
        const me = await call(lastLine(before.stdout), '/api/v2/partners/me');
        assert.equal(me.status, 200);
        assert.equal(((await me.json()) as { partner_id: string }).partner_id, 'ptn_northsea_mgmt');
        const fleet = await call(lastLine(before.stdout), '/api/v2/employers/me/fleet?limit=5');
        assert.equal(fleet.status, 200);
        assert.ok(((await fleet.json()) as { items: unknown[] }).items.length > 0, 'the demo fleet came back');
        assert.equal((await call(lastLine(later.stdout), '/api/v2/partners/me')).status, 401, 'a key issued after the dump');
      } finally {
        await serve.stop();
      }
    });
  },
);
