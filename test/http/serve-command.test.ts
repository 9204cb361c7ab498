import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { it } from 'node:test';
import { runCli } from '../../src/cli/run.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { NOW, worldFixture } from '../support/read-api-world.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { checkAgainstOpenApi } from '../support/openapi-check.ts';
import { describeEachStore } from '../support/stores.ts';
import { waitForOutput } from '../support/wait.ts';

describeEachStore('svc serve', ({ store, url }) => {
  it('serves the API over the store, logs JSON lines with request ids and never the key, and stops on the shutdown signal', async () => {
    await loadFixtures(store().db, [writeFixture(worldFixture())], () => NOW);
    const key = (await issuePartnerKey(store().db, 'ptn_full', 'live', () => NOW)).key;
    const out = new PassThrough();
    let log = '';
    out.on('data', (c) => (log += c));
    let stop: (() => Promise<void>) | undefined;
    const exit = runCli(['serve', '--port', '0', '--db', url()], {
      env: { SVC_LOG_LEVEL: 'info' },
      stdout: out,
      stderr: new PassThrough(),
      clock: () => NOW,
      onShutdown: (s) => {
        stop = s;
      },
    });
    const base = (await waitForOutput(out, () => log, /"url":"(http:\/\/[^"]+)"/))[1];
    const res = await fetch(`${base}/api/v2/employers/me/vessels`, { headers: { Authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200);
    checkAgainstOpenApi({ method: 'GET', path: '/api/v2/employers/me/vessels', status: 200, headers: res.headers, body: await res.json() });
    const requestId = res.headers.get('x-request-id');
    assert.ok(stop, 'serve registered its shutdown');
    await stop();
    assert.equal(await exit, 0);
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const line = lines.find((l) => l.reqId === requestId);
    assert.deepEqual([line?.msg, line?.status, line?.method], ['request', 200, 'GET']);
    assert.ok(lines.some((l) => l.msg === 'stopped'));
    assert.ok(!log.includes(key), 'the key is never logged');
    // Stopped means the port no longer takes connections, not merely that requests fail.
    await assert.rejects(fetch(`${base}/_internal/health`), (err: any) => err.cause?.code === 'ECONNREFUSED');
  });

  it('refuses to start on a store that is not migrated, or with half a TLS pair', async () => {
    const run = (args: string[], db: string) =>
      runCli(['serve', '--port', '0', '--db', db, ...args], {
        env: {},
        stdout: new PassThrough(),
        stderr: new PassThrough(),
        clock: () => NOW,
        onShutdown: () => {},
      });
    assert.equal(await run(['--tls-cert', 'x.pem'], url()), 64);
    assert.equal(await run([], 'sqlite::memory:'), 78);
  });
});
