import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairSlots } from '../../src/sync/delivery/fair-slots.ts';

/** Acquires a slot for `lane` and records the order in which lanes were granted. */
function taker(slots: FairSlots, granted: string[]) {
  return (lane: string) =>
    slots.acquire(lane).then((release) => {
      granted.push(lane);
      return release;
    });
}

describe('the run shares its delivery slots fairly between endpoints', () => {
  it('holds no endpoint above its own limit, and hands a freed slot to the endpoint with the fewest in flight', async () => {
    const slots = new FairSlots(3, 2);
    const granted: string[] = [];
    const take = taker(slots, granted);
    const a1 = await take('a');
    await take('a');
    const pending = [take('a'), take('b')];
    await Promise.resolve();
    assert.deepEqual(granted, ['a', 'a', 'b']);
    a1();
    await pending[0];
    assert.deepEqual(granted, ['a', 'a', 'b', 'a']);
  });

  it('serves an endpoint that is not failing before any failing one, and lets a failing one hold one slot only', async () => {
    const slots = new FairSlots(2, 2);
    const granted: string[] = [];
    const take = taker(slots, granted);
    const hangs1 = await take('hangs');
    const other = await take('other');
    slots.setFailing('hangs', true);
    // Both wait: the failing endpoint asked first.
    const hangsAgain = take('hangs');
    const healthy = take('healthy');
    hangs1();
    const healthyRelease = await healthy;
    assert.deepEqual(granted, ['hangs', 'other', 'healthy'], 'the healthy endpoint got the slot the failing one freed');
    other();
    await hangsAgain;
    assert.equal(granted.at(-1), 'hangs');
    // The failing endpoint now holds one slot; one more request from it waits though a slot is free.
    healthyRelease();
    let second = false;
    void take('hangs').then(() => {
      second = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(second, false, 'a failing endpoint holds at most one slot');
  });
});
