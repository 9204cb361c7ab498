import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupCommit, type GroupCommitOptions } from '../../src/services/plumbing/group-commit.ts';
import { createRateLimiter } from '../../src/services/rate-limit.ts';
import { describeEachStore } from '../support/stores.ts';

/** A group commit whose writes record their batch, then wait until `open()` (writes stay running while others arrive). */
function gatedWrites(options?: GroupCommitOptions) {
  const batches: number[][] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const write = groupCommit(async (items: readonly number[]) => {
    batches.push([...items]);
    await gate;
    return items.map((i) => i * 10);
  }, options);
  return { write, batches, open };
}

describe('group commit', () => {
  it('writes a lone item at once, and items arriving during a write together in the next one', async () => {
    const { write, batches, open } = gatedWrites();
    const written = Promise.all([1, 2, 3, 4].map(write));
    open();
    assert.deepEqual(await written, [10, 20, 30, 40]);
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
  });

  it('with gatherTurn, the items of one event-loop turn share the first write; an item arriving after it began waits for the next', async () => {
    const { write, batches, open } = gatedWrites({ gatherTurn: true });
    const sameTurn = [1, 2, 3].map(write);
    assert.deepEqual(batches, [], 'nothing is written before the turn ends');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1, 2, 3]]);
    const late = write(4);
    open();
    assert.deepEqual(await Promise.all([...sameTurn, late]), [10, 20, 30, 40]);
    assert.deepEqual(batches, [[1, 2, 3], [4]]);
  });

  it('a failed write fails every caller of that batch, and the next batch still runs', async () => {
    let calls = 0;
    const write = groupCommit(async (items: readonly string[]) => {
      calls++;
      if (items.includes('bad')) throw new Error('disk full');
      return items;
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
