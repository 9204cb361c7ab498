import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { cleanRunState, faultFeed, ingestedState, ingestFromPipe, versionCount } from '../support/ingest-fault-feed.ts';
import { eventually } from '../support/probe.ts';
import { describeEachStore } from '../support/stores.ts';

const BATCH = '50';

/*
 * `svc ingest` killed with SIGKILL part-way through a file, then run again on the same file: the
 * store ends as one clean run of the file leaves a fresh store, and no change was applied twice
 * (each row has as many change-capture rows, so the next sync sends the same events). The killed
 * run reads a named pipe the test writes into: it cannot reach the end of its input before the kill.
 */
describeEachStore('svc ingest killed with SIGKILL part-way through a file, then run again', ({ store, url, dialect }) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ingest-kill-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the rerun applies nothing twice: the store, its versions and its change capture match one clean run', async () => {
    const lines = faultFeed();
    const file = join(dir, 'changes.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const run = ingestFromPipe(dir, url(), ['--batch-size', BATCH]);
    const db = store().db;
    try {
      // Two thirds of the file: the run commits batch after batch of it, and is killed among them.
      run.input.write(`${lines.slice(0, Math.floor((lines.length * 2) / 3)).join('\n')}\n`);
      // A bound that only a stuck run reaches: a loaded machine (load 30 on 2 cores) took more than 20 s.
      await eventually('ten batches are committed', async () => (await versionCount(db)) >= 400, 120_000);
    } finally {
      await run.stop();
    }
    const committed = await versionCount(db);
    assert.equal(run.child.signalCode, 'SIGKILL');

    const rerun = await cliChild(['ingest', file, '--batch-size', BATCH, '--json'], { SVC_DATABASE_URL: url() });
    assert.equal(rerun.code, 0, rerun.stderr);
    const summary = JSON.parse(rerun.stdout);
    assert.ok(
      summary.stale >= committed,
      `the ${committed} entities the killed run committed are stale on the rerun (${summary.stale} stale)`,
    );
    assert.equal(summary.waiting, 0);

    const expected = await cleanRunState(dialect, file, ['--batch-size', BATCH]);
    assert.ok((expected.crew as unknown[]).length > 0 && (expected.ingest_held as unknown[]).length === 0);
    assert.deepEqual(await ingestedState(db), expected);
  });
});
