import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { openStore, type Store } from '../../src/store/connect.ts';
import { claimDueEvents } from '../../src/store/repositories/outbox-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { resetDelivery, seedEvent, seedPartners, T0 } from '../support/sync-world.ts';

const UNTIL = '2026-11-22T10:05:00.000Z';

describeEachStore('claiming due events in batches', ({ store, url }) => {
  beforeEach(async () => resetDelivery(store().db));

  it('claimers racing on separate connections take disjoint sets, none more than its limit, until nothing is left', async () => {
    await seedPartners(store().db, 'ptn_a', 'ptn_b');
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await seedEvent(store().db, 'ptn_a')).eventId);
    await seedEvent(store().db, 'ptn_b');
    const stores: Store[] = await Promise.all([1, 2, 3].map(() => openStore(url(), { poolSize: 2 })));
    try {
      const taken = new Map<string, string>();
      for (let round = 0; taken.size < ids.length && round < 10; round++) {
        const claims = await Promise.all(
          stores.map((s, i) =>
            claimDueEvents(s.db, {
              partnerId: 'ptn_a',
              runId: `run_${round}_${i}`,
              now: T0,
              lockedUntil: UNTIL,
              limit: 13,
            }),
          ),
        );
        for (const [i, claim] of claims.entries()) {
          assert.ok(claim.length <= 13, `round ${round}, claimer ${i} took ${claim.length}`);
          for (const e of claim) {
            assert.equal(taken.get(e.eventId), undefined, `${e.eventId} claimed twice`);
            taken.set(e.eventId, `run_${round}_${i}`);
            assert.deepEqual([e.partnerId, e.lockedBy, e.lockedUntil], ['ptn_a', `run_${round}_${i}`, UNTIL]);
          }
        }
      }
      assert.deepEqual([...taken.keys()].sort(), [...ids].sort());
      assert.deepEqual(
        await claimDueEvents(store().db, { partnerId: 'ptn_a', runId: 'run_late', now: T0, lockedUntil: UNTIL, limit: 13 }),
        [],
      );
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('an event is claimed again only once its claim has lapsed, oldest due first', async () => {
    await seedPartners(store().db, 'ptn_a');
    const early = await seedEvent(store().db, 'ptn_a', { nextAttemptAt: '2026-11-22T09:00:00.000Z' });
    const late = await seedEvent(store().db, 'ptn_a', { nextAttemptAt: '2026-11-22T09:30:00.000Z' });
    await seedEvent(store().db, 'ptn_a', { nextAttemptAt: '2026-11-22T11:00:00.000Z' });
    const claim = (runId: string, now: string) =>
      claimDueEvents(store().db, { partnerId: 'ptn_a', runId, now, lockedUntil: UNTIL, limit: 10 });
    assert.deepEqual(
      (await claim('run_1', T0)).map((e) => e.eventId),
      [early.eventId, late.eventId],
      'not yet due is left',
    );
    assert.deepEqual(await claim('run_2', '2026-11-22T10:04:59.999Z'), []);
    assert.deepEqual(
      (await claim('run_3', UNTIL)).map((e) => e.lockedBy),
      ['run_3', 'run_3'],
    );
  });
});
