import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { DiffRound } from '../../src/domain/diff-round.ts';
import {
  claimDiffShare,
  closeDiffRound,
  findDiffRound,
  finishDiffShare,
  holdDiffShare,
  listDiffShares,
  openDiffRound,
  releaseDiffShare,
} from '../../src/store/repositories/diff-shares-repo.ts';
import { describeEachStore } from '../support/stores.ts';

const T0 = '2026-11-25T10:00:00.000Z';
const T1 = '2026-11-25T10:01:00.000Z';
const LATER = '2026-11-25T10:02:00.000Z';

const round = (roundId: string): DiffRound => ({
  roundId,
  runId: 'run_a',
  at: T0,
  today: '2026-11-25',
  windowDays: 90,
  from: { tx: 0, seq: 4 },
  until: { tx: 0, seq: 9 },
  full: ['ptn_b'],
  claimMs: 60_000,
});

describeEachStore('the shares of a diff round across processes', ({ store }) => {
  const claim = (holder: string, now = T0, roundId = 'dr_1') => claimDiffShare(store().db, { roundId, holder, now, until: T1 });
  const open = (roundId: string, shares: string[][]) =>
    store()
      .db.transaction()
      .execute((trx) => openDiffRound(trx, round(roundId), shares));

  it('hands out each share once, holds it for its holder only, and counts the events its holder commits, and records who finished it', async () => {
    await open('dr_1', [['ptn_a', 'ptn_c'], ['ptn_b'], ['ptn_d']]);
    assert.deepEqual(await findDiffRound(store().db), round('dr_1'));
    const claimed = await Promise.all([claim('run_a'), claim('dw_1'), claim('dw_2')]);
    assert.deepEqual(claimed.map((s) => s?.share).sort(), [0, 1, 2], 'three claims at once take three shares');
    assert.equal(await claim('dw_3'), undefined, 'none left');
    const mine = claimed.find((s) => s?.share === 1)!;
    assert.deepEqual(mine.partnerIds, ['ptn_b']);
    const by = mine.holder!;
    assert.equal(await holdDiffShare(store().db, { roundId: 'dr_1', share: 1, holder: 'someone_else', until: T1 }), false);
    assert.equal(await holdDiffShare(store().db, { roundId: 'dr_1', share: 1, holder: by, until: T1 }), true);
    const key = { roundId: 'dr_1', share: 1, holder: by };
    assert.equal(await holdDiffShare(store().db, { ...key, until: T1, created: { ptn_b: { 'crew.document.updated': 2 } } }), true);
    assert.equal(
      await holdDiffShare(store().db, { ...key, until: T1, created: { ptn_b: { 'crew.document.updated': 1, 'crew.added': 1 } } }),
      true,
    );
    assert.equal(
      await holdDiffShare(store().db, { ...key, holder: 'someone_else', until: T1, created: { ptn_b: { 'crew.added': 5 } } }),
      false,
      'only its holder counts into a share',
    );
    const result = { ptn_b: { 'crew.document.updated': 3, 'crew.added': 1 } };
    assert.equal(await finishDiffShare(store().db, key), true);
    assert.equal(await holdDiffShare(store().db, { roundId: 'dr_1', share: 1, holder: by, until: T1 }), false, 'done: nothing to hold');
    const shares = await listDiffShares(store().db, 'dr_1');
    assert.deepEqual(
      shares.map((s) => [s.share, s.done, s.done ? s.result : null]),
      [
        [0, false, null],
        [1, true, result],
        [2, false, null],
      ],
    );
  });

  it('a claim that lapsed (its process died) or was released is taken by another, and its old holder can no longer hold or finish it', async () => {
    await open('dr_2', [['ptn_a'], ['ptn_b']]);
    assert.equal((await claim('dw_dead', T0, 'dr_2'))?.share, 0);
    assert.equal((await claim('dw_quits', T0, 'dr_2'))?.share, 1);
    assert.equal(await claim('run_a', T0, 'dr_2'), undefined, 'both held until T1');
    await releaseDiffShare(store().db, { roundId: 'dr_2', share: 1, holder: 'dw_quits' });
    assert.equal((await claim('run_a', T0, 'dr_2'))?.share, 1, 'a released share is free at once');
    assert.equal((await claim('run_b', LATER, 'dr_2'))?.share, 0, 'lapsed at T1: free');
    assert.equal(await holdDiffShare(store().db, { roundId: 'dr_2', share: 0, holder: 'dw_dead', until: LATER }), false);
    assert.equal(
      await holdDiffShare(store().db, { roundId: 'dr_2', share: 0, holder: 'dw_dead', until: LATER, created: { ptn_a: { x: 1 } } }),
      false,
    );
    assert.equal(await finishDiffShare(store().db, { roundId: 'dr_2', share: 0, holder: 'dw_dead' }), false);
    assert.equal(await finishDiffShare(store().db, { roundId: 'dr_2', share: 0, holder: 'run_b' }), true);
  });

  it('a new round replaces the one left open, whose holders then hold nothing; closing a round leaves a newer one', async () => {
    await open('dr_3', [['ptn_a'], ['ptn_b']]);
    await claim('dw_old', T0, 'dr_3');
    await open('dr_4', [['ptn_a', 'ptn_b']]);
    assert.equal(await holdDiffShare(store().db, { roundId: 'dr_3', share: 0, holder: 'dw_old', until: T1 }), false);
    assert.deepEqual(await listDiffShares(store().db, 'dr_3'), []);
    await store()
      .db.transaction()
      .execute((trx) => closeDiffRound(trx, 'dr_3'));
    assert.equal((await findDiffRound(store().db))?.roundId, 'dr_4', 'an old round closing leaves the new one');
    await store()
      .db.transaction()
      .execute((trx) => closeDiffRound(trx, 'dr_4'));
    assert.equal(await findDiffRound(store().db), undefined);
    assert.deepEqual(await listDiffShares(store().db, 'dr_4'), []);
  });
});
