import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { cleanRunState, faultFeed, ingestedState, ingestFromPipe, versionCount } from '../support/ingest-fault-feed.ts';
import { eventually } from '../support/probe.ts';
import { describeEachStore } from '../support/stores.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const BATCH = '50';

describeEachStore('svc ingest while its store goes away part-way through a file', ({ store, url, dialect }) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ingest-outage-'));
  let child: ChildProcess | undefined;
  let proxy: TcpProxy | undefined;
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await proxy?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // A SQLite file cannot go away under a running process (test/faults/store-outage.test.ts); a
  // killed run is test/faults/ingest-kill.test.ts.
  if (dialect === 'sqlite') return;

  it('the run exits 69 saying where to take up again; a rerun of the file ends as one clean run', async () => {
    const lines = faultFeed();
    const file = join(dir, 'changes.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    // The run reaches Postgres through a proxy the test turns into a server that went down.
    const target = new URL(url());
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.port = String(proxy.port);
    const run = ingestFromPipe(dir, target.toString(), ['--batch-size', BATCH]);
    child = run.child;
    const half = Math.floor(lines.length / 2);
    run.input.write(`${lines.slice(0, half).join('\n')}\n`);
    const db = store().db;
    await eventually('ten batches are committed', async () => (await versionCount(db)) >= 400, 20_000);
    proxy.setMode('reset');
    run.input.end(`${lines.slice(half).join('\n')}\n`);
    const [code] = await once(child, 'exit');
    assert.equal(code, 69, run.stderr());
    assert.match(run.stderr(), /^svc: the store became unavailable while ingesting .*pipe\.ndjson:\d+ to .*pipe\.ndjson:\d+ .*run the same input again/m);
    assert.equal(run.stderr().trim().split('\n').length, 1, `one line, no stack trace: ${run.stderr()}`);
    proxy.setMode('forward');

    const rerun = await cliChild(['ingest', file, '--batch-size', BATCH], { SVC_DATABASE_URL: url() });
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.deepEqual(await ingestedState(db), await cleanRunState(dialect, file, ['--batch-size', BATCH]));
  });
});
