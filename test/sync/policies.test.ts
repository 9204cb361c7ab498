import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nonPublicReason } from '../../src/domain/address-policy.ts';
import { destinationProblem } from '../../src/services/webhooks/destination.ts';
import {
  attemptsThisRun,
  decideAfterAttempt,
  judgeAttempt,
  nextWaitMs,
  parseRetryAfter,
  type AttemptResult,
} from '../../src/sync/failure-policy.ts';

const result = (statusCode: number | null, extra: Partial<AttemptResult> = {}): AttemptResult => ({
  statusCode,
  error: null,
  responseBody: null,
  latencyMs: 1,
  retryAfterMs: null,
  refused: false,
  ...extra,
});

describe('which attempt results are final', () => {
  it('2xx delivers; 4xx other than 408/429 and refused destinations are permanent; the rest retries', () => {
    for (const s of [200, 201, 202, 204, 299]) assert.equal(judgeAttempt(result(s)), 'delivered', String(s));
    for (const s of [400, 401, 403, 404, 405, 409, 410, 413, 422, 499]) assert.equal(judgeAttempt(result(s)), 'permanent', String(s));
    for (const s of [408, 429, 500, 502, 503, 504, 301, 302, 307, 308, 100]) assert.equal(judgeAttempt(result(s)), 'retry', String(s));
    assert.equal(judgeAttempt(result(null, { error: 'timeout after 10000 ms' })), 'retry');
    assert.equal(judgeAttempt(result(null, { error: 'destination refused', refused: true })), 'permanent');
  });
});

describe('the decision after an attempt', () => {
  it('retry with a wait until the 8th failure, which is dead; permanent failures are final at any attempt', () => {
    const half = () => 0.5;
    assert.deepEqual(decideAfterAttempt(1, result(204), half), { outcome: 'delivered', waitMs: 0 });
    assert.deepEqual(decideAfterAttempt(1, result(500), half), { outcome: 'retry', waitMs: 2000 });
    assert.deepEqual(decideAfterAttempt(7, result(500), half), { outcome: 'retry', waitMs: 36_000_000 });
    assert.deepEqual(decideAfterAttempt(8, result(500), half), { outcome: 'dead', waitMs: 0 });
    assert.deepEqual(decideAfterAttempt(1, result(404), half), { outcome: 'failed_permanent', waitMs: 0 });
    assert.deepEqual(decideAfterAttempt(8, result(204), half), { outcome: 'delivered', waitMs: 0 });
  });
});

describe('the retry schedule', () => {
  it('in-run waits are about 2 s and 8 s (±20 % jitter); persisted waits are exact', () => {
    assert.equal(
      nextWaitMs(1, null, () => 0),
      1600,
    );
    assert.equal(
      nextWaitMs(1, null, () => 0.999999),
      2400,
    );
    assert.equal(
      nextWaitMs(2, null, () => 0.5),
      8000,
    );
    assert.deepEqual(
      [3, 4, 5, 6, 7].map((n) => nextWaitMs(n, null, () => 0)),
      [300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000],
    );
  });

  it('Retry-After only lengthens, and counts for at most an hour', () => {
    assert.equal(
      nextWaitMs(1, 1000, () => 0.5),
      2000,
    );
    assert.equal(
      nextWaitMs(1, 30_000, () => 0.5),
      30_000,
    );
    assert.equal(
      nextWaitMs(3, 60_000, () => 0.5),
      300_000,
    );
    assert.equal(
      nextWaitMs(3, 7_200_000, () => 0.5),
      3_600_000,
    );
    assert.equal(
      nextWaitMs(7, 3_600_000, () => 0.5),
      36_000_000,
    );
  });

  it('three attempts in the first run, then one per run', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 7].map(attemptsThisRun), [3, 2, 1, 1, 1, 1]);
  });

  it('Retry-After is seconds or an HTTP date', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 10:01:00 GMT', now), 60_000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), null);
    assert.equal(parseRetryAfter(null, now), null);
  });
});

describe('destination addresses', () => {
  it('classifies special-purpose IPv4 and IPv6 ranges, including embedded IPv4', () => {
    const cases: [string, string | null][] = [
      ['93.184.216.34', null],
      ['8.8.8.8', null],
      ['127.0.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', null],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared (CGNAT)'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'link-local'],
      ['fd12:3456::1', 'private (unique local)'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['2606:4700:4700::1111', null],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:8.8.8.8', null],
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b::8.8.8.8', null],
    ];
    for (const [address, reason] of cases) assert.equal(nonPublicReason(address), reason, address);
  });

  it('after resolution, every address must be public unless insecure webhooks are allowed', async () => {
    const url = new URL('https://hooks.partner.example/x');
    const dns = (addresses: string[]) => async () => addresses;
    assert.equal(await destinationProblem(url, { allowInsecure: false }, dns(['93.184.216.34'])), null);
    assert.equal(
      await destinationProblem(url, { allowInsecure: false }, dns(['93.184.216.34', '::1'])),
      'url host hooks.partner.example resolves to ::1, a loopback address',
    );
    assert.equal(await destinationProblem(url, { allowInsecure: false }, dns([])), 'url host hooks.partner.example resolves to no address');
    assert.equal(await destinationProblem(url, { allowInsecure: true }, dns(['10.0.0.1'])), null);
  });
});
