import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { blockSize, createRateLimiter } from '../../src/services/rate-limit.ts';
import { describeEachStore } from '../support/stores.ts';

const NOW = new Date('2026-11-22T10:00:18.000Z');
/*
 * These tests are about the store's judgement. A claim that waits past claimWaitMs (1 s by default)
 * makes the process count alone on what it last saw (docs/api.md, "Rate limits"), which a loaded
 * machine can cause at any call: waiting as long as a claim takes keeps them on the store's path.
 */
const PATIENT = { claimWaitMs: 600_000 };
let run = 0;

describeEachStore('the shared rate limiter (tokens claimed from the store a block at a time)', ({ store }) => {
  it('several processes on one store never admit more than the limit together, and leave at most two blocks each unused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 200 }),
        async (limit, processes, order) => {
          const bucket = `partner:prop_${++run}`;
          const limiters = Array.from({ length: processes }, () => createRateLimiter(store().db, () => NOW, 60, PATIENT));
          let allowed = 0;
          let lastRemaining = limit;
          for (const p of order) {
            const d = await limiters[p % processes]!.hit(bucket, limit);
            if (d.allowed) allowed++;
            assert.ok(d.remaining <= limit && d.remaining >= 0);
            if (processes === 1) {
              assert.equal(d.remaining, Math.max(0, limit - allowed), 'one process reports its exact remainder');
              assert.ok(d.remaining <= lastRemaining);
              lastRemaining = d.remaining;
            }
          }
          assert.ok(allowed <= limit, `${allowed} admitted over a limit of ${limit}`);
          const unusedBound = processes === 1 ? 0 : processes * 2 * blockSize(limit);
          assert.ok(allowed >= Math.min(order.length, limit) - unusedBound, `${allowed} admitted of ${order.length} calls, limit ${limit}`);
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 25) },
    );
  });

  it('a limit changed within the window holds from the next call: no process admits past the limit its call carries', async () => {
    const step = fc.record({ process: fc.nat(3), limit: fc.option(fc.integer({ min: 1, max: 150 }), { freq: 8 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 150 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(step, { minLength: 1, maxLength: 150 }),
        async (first, processes, steps) => {
          const bucket = `partner:change_${++run}`;
          const limiters = Array.from({ length: processes }, () => createRateLimiter(store().db, () => NOW, 60, PATIENT));
          let limit = first;
          let allowed = 0;
          let previous: { remaining: number; limit: number } | undefined;
          for (const { process, limit: changed } of steps) {
            limit = changed ?? limit;
            const d = await limiters[process % processes]!.hit(bucket, limit);
            if (d.allowed) allowed++;
            assert.ok(!d.allowed || allowed <= limit, `call ${allowed} admitted under a limit of ${limit}`);
            if (processes === 1 && previous?.remaining === 0 && previous.limit === limit) {
              assert.equal(d.allowed, false, 'admitted after an answer that said remaining=0 under the same limit');
            }
            previous = { remaining: d.remaining, limit };
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 25) },
    );
  });

  it('a limit lowered within the window, after a few calls, admits only what is left of it', async () => {
    const limiter = createRateLimiter(store().db, () => NOW, 60, PATIENT);
    for (let i = 0; i < 3; i++) assert.equal((await limiter.hit('partner:lowered', 1000)).allowed, true);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await limiter.hit('partner:lowered', 5));
    assert.deepEqual(
      answers.map((d) => [d.allowed, d.remaining]),
      [
        [true, 1],
        [true, 0],
        [false, 0],
      ],
    );
  });

  it('a limit lowered while the next block is being claimed reports what is left exactly', async () => {
    // At 51 a block is 2 tokens: the third call claims the next block in the background, and the
    // fourth, under 5, finds tokens to hand back (the claim counted them in the store).
    const limiter = createRateLimiter(store().db, () => NOW, 60, PATIENT);
    const answers = [];
    for (const limit of [51, 51, 51, 5, 5, 5]) answers.push(await limiter.hit('partner:lowered_in_flight', limit));
    assert.deepEqual(
      answers.map((d) => [d.allowed, d.remaining]),
      [
        [true, 50],
        [true, 49],
        [true, 48],
        [true, 1],
        [true, 0],
        [false, 0],
      ],
    );
  });

  it('concurrent calls in one process are admitted exactly up to the limit', async () => {
    const limiter = createRateLimiter(store().db, () => NOW, 60, PATIENT);
    const decisions = await Promise.all(Array.from({ length: 300 }, () => limiter.hit('partner:burst', 250)));
    assert.equal(decisions.filter((d) => d.allowed).length, 250);
  });
});
