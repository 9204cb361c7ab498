import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { takeSequences } from '../../src/store/repositories/event-sequences-repo.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore("a partner's event sequence numbers", ({ store }) => {
  it('are taken in blocks from 1, per partner, without a gap or a repeat', async () => {
    const db = store().db;
    assert.equal(await takeSequences(db, 'ptn_seq_a', 3), 1);
    assert.equal(await takeSequences(db, 'ptn_seq_b', 1), 1);
    assert.equal(await takeSequences(db, 'ptn_seq_a', 1), 4);
    assert.equal(await takeSequences(db, 'ptn_seq_a', 2), 5);
  });

  it('concurrent writers take disjoint blocks, in the order they commit; a rolled back block is taken again', async () => {
    const db = store().db;
    const committed: Array<[number, number]> = [];
    const writer = (count: number, fail: boolean) =>
      db
        .transaction()
        .execute(async (trx) => {
          const first = await takeSequences(trx, 'ptn_seq_c', count);
          await delay(5);
          if (fail) throw new Error('rolled back');
          committed.push([first, count]);
        })
        .catch((err: Error) => assert.equal(err.message, 'rolled back'));
    await Promise.all(Array.from({ length: 8 }, (_, i) => writer(1 + (i % 3), i === 3)));
    const numbers = committed.flatMap(([first, count]) => Array.from({ length: count }, (_, k) => first + k));
    assert.deepEqual(
      numbers,
      Array.from({ length: numbers.length }, (_, k) => k + 1),
      'a block committed after another holds higher numbers, and the numbers run on without a gap',
    );
  });
});
