import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { adminQuery } from '../support/pg-admin.ts';
import { postgresRuns } from '../support/stores.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm test leaves nothing behind', () => {
  it('a run removes its temporary files and folders and its template database', async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-run-tmp-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    const tag = `left${randomBytes(3).toString('hex')}`;
    // A store test file: it builds the SQLite template in the temporary folder and, when Postgres answers, the Postgres one.
    const run = spawn(process.execPath, ['scripts/run-tests.mjs', '--test-reporter=tap', 'test/store/change-marks.test.ts'], {
      cwd: root,
      // Without NODE_TEST_CONTEXT: node:test refuses to start a run from within a test file's process.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, TMPDIR: tmp, SVC_TEST_RUN_TAG: tag },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    run.stdout.on('data', (c) => (out += c));
    run.stderr.on('data', (c) => (out += c));
    const code = await new Promise((resolve) => run.on('exit', resolve));
    assert.equal(code, 0, out);
    assert.match(out, /^# pass [1-9]/m);
    assert.deepEqual(readdirSync(tmp), []);
    if (postgresRuns()) {
      const left = await adminQuery('select datname from pg_database where datname like $1', [`%\\_${tag}%`]);
      assert.deepEqual(left, []);
    }
  });
});
