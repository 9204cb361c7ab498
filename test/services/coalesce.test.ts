import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalesce } from '../../src/services/plumbing/coalesce.ts';
import { createRateLimiter } from '../../src/services/rate-limit.ts';
import { describeEachStore } from '../support/stores.ts';

/** Coalesced writes that record their batch, then wait until `open()` (writes stay running while others arrive). */
function gatedWrites() {
  const batches: number[][] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const write = coalesce(async (items: readonly number[]) => {
    batches.push([...items]);
    await gate;
    return items.map((i) => i * 10);
  });
  return { write, batches, open };
}

describe('coalesced calls', () => {
  it('writes a lone item at once, and items arriving during a write together in the next one', async () => {
    const { write, batches, open } = gatedWrites();
    const written = Promise.all([1, 2, 3, 4].map(write));
    open();
    assert.deepEqual(await written, [10, 20, 30, 40]);
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
  });

  it('a failed write fails every caller of that batch, and the next batch still runs', async () => {
    let calls = 0;
    const write = coalesce((items: readonly string[]) => {
      calls++;
      return items.includes('bad') ? Promise.reject(new Error('disk full')) : Promise.resolve(items);
    });
    const results = await Promise.allSettled([write('first'), write('bad'), write('other')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected'],
    );
    assert.equal(await write('later'), 'later');
    assert.equal(calls, 3);
  });
});

describeEachStore('the store-backed rate limit under concurrency', ({ store }) => {
  it('concurrent hits each get their own count: exactly `limit` are allowed', async () => {
    const limiter = createRateLimiter(store().db, () => new Date('2026-11-22T10:00:30Z'), 60);
    const decisions = await Promise.all(Array.from({ length: 25 }, () => limiter.hit('ptn_x', 20)));
    assert.equal(decisions.filter((d) => d.allowed).length, 20);
    assert.deepEqual(
      decisions.map((d) => d.remaining).sort((a, b) => a - b),
      [
        ...Array(20)
          .fill(0)
          .map((_, i) => i),
        0,
        0,
        0,
        0,
        0,
      ].sort((a, b) => a - b),
    );
    const other = await limiter.hit('ptn_y', 20);
    assert.equal(other.remaining, 19, 'buckets are counted apart');
  });
});
