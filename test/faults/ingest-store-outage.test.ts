import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { cleanRunState, faultFeed, ingestedState, ingestFromPipe, versionCount } from '../support/ingest-fault-feed.ts';
import { eventually } from '../support/probe.ts';
import { adminQuery, describeEachStore } from '../support/stores.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const BATCH = '50';
/** A bound that only a stuck run reaches: a loaded machine (load 30 on 2 cores) took more than 20 s. */
const COMMITTED_WITHIN_MS = 120_000;

describeEachStore('svc ingest while its store goes away part-way through a file', ({ store, url, dialect }) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ingest-outage-'));
  let proxy: TcpProxy | undefined;
  /** The store's URL through the proxy, which the tests turn into a server that went down. */
  const viaProxy = () => {
    const target = new URL(url());
    target.port = String(proxy!.port);
    return target.toString();
  };
  before(async () => {
    if (dialect === 'sqlite') return;
    const target = new URL(url());
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });
  after(async () => {
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
    proxy!.setMode('forward');
    mkdirSync(join(dir, 'run'));
    const run = ingestFromPipe(join(dir, 'run'), viaProxy(), ['--batch-size', BATCH]);
    const db = store().db;
    try {
      const half = Math.floor(lines.length / 2);
      run.input.write(`${lines.slice(0, half).join('\n')}\n`);
      await eventually('ten batches are committed', async () => (await versionCount(db)) >= 400, COMMITTED_WITHIN_MS);
      proxy!.setMode('reset');
      run.input.end(`${lines.slice(half).join('\n')}\n`);
      const [code] = await once(run.child, 'exit');
      assert.equal(code, 69, run.stderr());
      assert.match(
        run.stderr(),
        /^svc: the store became unavailable while ingesting .*pipe\.ndjson:\d+ to .*pipe\.ndjson:\d+ .*run the same input again/m,
      );
      assert.equal(run.stderr().trim().split('\n').length, 1, `one line, no stack trace: ${run.stderr()}`);
    } finally {
      await run.stop();
      proxy!.setMode('forward');
    }

    const rerun = await cliChild(['ingest', file, '--batch-size', BATCH], { SVC_DATABASE_URL: url() });
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.deepEqual(await ingestedState(db), await cleanRunState(dialect, file, ['--batch-size', BATCH]));
  });

  it('a dry run, one transaction for the whole input, exits 69 too and writes nothing', async () => {
    const db = store().db;
    const before = await ingestedState(db);
    const lines = faultFeed();
    proxy!.setMode('forward');
    mkdirSync(join(dir, 'dry'));
    const run = ingestFromPipe(join(dir, 'dry'), viaProxy(), ['--dry-run']);
    try {
      const half = Math.floor(lines.length / 2);
      run.input.write(`${lines.slice(0, half).join('\n')}\n`);
      const database = new URL(url()).pathname.slice(1);
      const waiting = async () =>
        (await adminQuery("select 1 from pg_stat_activity where datname = $1 and state = 'idle in transaction'", [database])).length > 0;
      await eventually('the dry run waits for more input inside its transaction', waiting, COMMITTED_WITHIN_MS);
      proxy!.setMode('reset');
      run.input.end(`${lines.slice(half).join('\n')}\n`);
      const [code] = await once(run.child, 'exit');
      assert.equal(code, 69, run.stderr());
      assert.match(run.stderr(), /^svc: the store became unavailable .*run the same input again/m);
    } finally {
      await run.stop();
      proxy!.setMode('forward');
    }
    assert.deepEqual(await ingestedState(db), before);
  });
});
