import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSuite } from '../support/run-suite.ts';
import { adminQuery } from '../support/pg-admin.ts';
import { postgresRuns } from '../support/stores.ts';

describe('npm test leaves nothing behind', () => {
  it('a run removes its temporary files and folders and its template database', async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-run-tmp-'));
    t.after(() => rmSync(tmp, { recursive: true, force: true }));
    const tag = `left${randomBytes(3).toString('hex')}`;
    // A store test file: it builds the SQLite template in the temporary folder and, when Postgres answers, the Postgres one.
    const { code, out } = await runSuite(['test/store/change-marks.test.ts'], { TMPDIR: tmp, SVC_TEST_RUN_TAG: tag });
    assert.equal(code, 0, out);
    assert.match(out, /^# pass [1-9]/m);
    assert.deepEqual(readdirSync(tmp), []);
    if (postgresRuns()) {
      const left = await adminQuery('select datname from pg_database where datname like $1', [`%\\_${tag}%`]);
      assert.deepEqual(left, []);
    }
  });
});
