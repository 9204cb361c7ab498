import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import type { Resolver } from '../../src/services/webhooks/destination.ts';
import { checkedLookup } from '../../src/services/webhooks/pinned-fetch.ts';
import { deliveryDepsFromConfig } from '../../src/sync/delivery/delivery-deps.ts';
import { sendAttempt } from '../../src/sync/send-attempt.ts';

const PUBLIC = '93.184.216.34';

/** A resolver answering from a list, one answer per call (the last one repeats), counting calls. */
function scripted(...answers: string[][]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    return answers[Math.min(calls.length - 1, answers.length - 1)]!;
  };
  return Object.assign(resolve, { calls });
}

function lookupOnce(resolve: Resolver, allowInsecure: boolean, all: boolean): Promise<unknown> {
  return new Promise((done, fail) => {
    (checkedLookup({ allowInsecure }, resolve) as any)('hooks.example', { all }, (err: Error | null, address: unknown, family?: number) => {
      if (err) fail(err);
      else done(all ? address : [address, family]);
    });
  });
}

describe('webhook connections are pinned to checked addresses (DNS rebinding)', () => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('ok');
  });
  let port = 0;
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('the connection lookup checks every address it resolves', async () => {
    await assert.rejects(lookupOnce(scripted([PUBLIC, '127.0.0.1']), false, true), /resolves to 127\.0\.0\.1, a loopback address/);
    await assert.rejects(lookupOnce(scripted(['10.0.0.7']), false, false), /a private address/);
    assert.deepEqual(await lookupOnce(scripted([PUBLIC]), false, true), [{ address: PUBLIC, family: 4 }]);
    assert.deepEqual(await lookupOnce(scripted([PUBLIC]), false, false), [PUBLIC, 4]);
    assert.deepEqual(await lookupOnce(scripted(['127.0.0.1']), true, false), ['127.0.0.1', 4]);
  });

  it('a name that resolves public for the check and loopback for the connection is never connected to', async () => {
    const rebinding = scripted([PUBLIC], ['127.0.0.1']);
    const deps = deliveryDepsFromConfig(
      loadConfig({}),
      { clock: () => new Date(), wallClock: () => new Date() },
      { resolve: rebinding, timeoutMs: 5000 },
    );
    const result = await sendAttempt(`https://hooks.rebind.example:${port}/x`, {}, '{}', deps);
    assert.equal(result.statusCode, null);
    assert.match(result.error ?? '', /resolves to 127\.0\.0\.1, a loopback address/);
    assert.equal(rebinding.calls.length, 2, 'the destination check and the connection each resolved the name');
    assert.equal(hits, 0);
  });

  it('connections use the addresses the resolver gave, on every attempt', async () => {
    const resolve = scripted(['127.0.0.1']);
    const deps = deliveryDepsFromConfig(
      loadConfig({}),
      { clock: () => new Date(), wallClock: () => new Date() },
      { resolve, allowInsecure: true, timeoutMs: 5000 },
    );
    for (let attempt = 1; attempt <= 2; attempt++) {
      // A name no system resolver knows: only the injected one can make this connect.
      const result = await sendAttempt(`http://hooks.svc-test.localhost:${port}/x`, {}, '{}', deps);
      assert.equal(result.statusCode, 200, result.error ?? '');
    }
    assert.equal(hits, 2);
    // Each new connection was looked up with the injected resolver (a kept-alive one stays on its address).
    assert.ok(resolve.calls.length >= 1);
    assert.ok(resolve.calls.every((h) => h === 'hooks.svc-test.localhost'));
  });
});
