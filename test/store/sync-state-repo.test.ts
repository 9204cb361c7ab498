import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import {
  deleteSnapshots,
  countDueCrew,
  dueSnapshotPage,
  type DuePosition,
  findSyncCursor,
  findSyncState,
  readSnapshots,
  recordSyncRun,
  saveSyncCursor,
  deleteSnapshotsInRange,
  writeSnapshots,
  type SnapshotWrite,
} from '../../src/store/repositories/sync-state-repo.ts';
import { describeEachStore } from '../support/stores.ts';

const T = '2026-11-22T10:00:00.000Z';
const crew = (n: number) => `crew_${String(n).padStart(4, '0')}`;

describeEachStore('sync snapshots, cursor and per-partner state in the store', ({ store }) => {
  beforeEach(async () => {
    for (const t of ['sync_snapshots', 'sync_state', 'settings'] as const) await store().db.deleteFrom(t).execute();
  });
  const snap = (partnerId: string, n: number, nextDue: string | null = null, status = 'v1'): SnapshotWrite => ({
    partnerId,
    crewUniqueId: crew(n),
    state: { status, docs: { doc_1: 'd1' }, compliance: { ves_a: 'c1' } },
    nextDue,
  });

  it('snapshots are read back per partner|crew; a rewrite replaces the state; absent pairs are absent; deletion is per partner', async () => {
    const db = store().db;
    await writeSnapshots(db, [snap('ptn_a', 1), snap('ptn_a', 2, '2026-12-01'), snap('ptn_b', 1)], T);
    await writeSnapshots(db, [snap('ptn_a', 1, '2027-01-01', 'v2')], T);
    const read = await readSnapshots(db, ['ptn_a', 'ptn_b'], [crew(1), crew(2), crew(3)]);
    assert.deepEqual([...read.keys()].sort(), [`ptn_a|${crew(1)}`, `ptn_a|${crew(2)}`, `ptn_b|${crew(1)}`]);
    assert.deepEqual(read.get(`ptn_a|${crew(1)}`), {
      state: { status: 'v2', docs: { doc_1: 'd1' }, compliance: { ves_a: 'c1' } },
      nextDue: '2027-01-01',
      updatedAt: T,
    });
    assert.equal(read.get(`ptn_b|${crew(1)}`)?.nextDue, null);
    assert.equal((await readSnapshots(db, [], [crew(1)])).size, 0);
    await deleteSnapshots(db, 'ptn_a', [crew(1), crew(3)]);
    assert.deepEqual([...(await readSnapshots(db, ['ptn_a', 'ptn_b'], [crew(1), crew(2)])).keys()].sort(), [
      `ptn_a|${crew(2)}`,
      `ptn_b|${crew(1)}`,
    ]);
  });

  it('more crew than one statement takes (2,000) are read and deleted whole', async () => {
    const db = store().db;
    const ids = Array.from({ length: 4500 }, (_, i) => i);
    await writeSnapshots(
      db,
      ids.map((n) => snap('ptn_a', n)),
      T,
    );
    assert.equal((await readSnapshots(db, ['ptn_a'], ids.map(crew))).size, 4500);
    await deleteSnapshots(db, 'ptn_a', ids.slice(0, 4400).map(crew));
    assert.deepEqual(
      [...(await readSnapshots(db, ['ptn_a'], ids.map(crew))).keys()].sort(),
      ids.slice(4400).map((n) => `ptn_a|${crew(n)}`),
    );
  });

  it('due snapshots: next_due on or before today for any of the partners, a keyset page at a time in due-date order', async () => {
    const db = store().db;
    await writeSnapshots(
      db,
      [
        snap('ptn_a', 1, '2026-11-22'),
        snap('ptn_b', 1, '2026-11-01'),
        snap('ptn_a', 2, '2026-11-23'),
        snap('ptn_a', 3, '2026-10-01'),
        snap('ptn_a', 4, null),
        snap('ptn_c', 5, '2026-01-01'),
        snap('ptn_b', 6, '2026-11-20'),
        snap('ptn_a', 7, '2026-11-20'),
      ],
      T,
    );
    const today = '2026-11-22';
    const walk = async (partners: string[], on: string, limit: number) => {
      const out: string[] = [];
      for (let after: DuePosition | null = null; ;) {
        const page = await dueSnapshotPage(db, partners, on, after, limit);
        out.push(...page.map((r) => `${r.nextDue} ${r.crewUniqueId}`));
        if (page.length < limit) return out;
        after = page.at(-1)!;
      }
    };
    const expected = [
      `2026-10-01 ${crew(3)}`,
      `2026-11-01 ${crew(1)}`,
      `2026-11-20 ${crew(6)}`,
      `2026-11-20 ${crew(7)}`,
      `2026-11-22 ${crew(1)}`,
    ];
    for (const limit of [1, 2, 3, 5, 100]) assert.deepEqual(await walk(['ptn_a', 'ptn_b'], today, limit), expected, `pages of ${limit}`);
    assert.equal(await countDueCrew(db, ['ptn_a', 'ptn_b'], today), 4, 'crew 1 once');
    assert.deepEqual(await walk([], today, 2), []);
    assert.equal(await countDueCrew(db, [], today), 0);
    assert.deepEqual(await walk(['ptn_a'], '2026-09-30', 2), []);
  });

  it('deleted in a range of crew ids for several partners, but for the crew kept', async () => {
    const db = store().db;
    const all = [1, 2, 3, 4, 5].flatMap((n) => [snap('ptn_a', n), snap('ptn_b', n), snap('ptn_c', n)]);
    await writeSnapshots(db, all, T);
    const left = async () => [...(await readSnapshots(db, ['ptn_a', 'ptn_b', 'ptn_c'], [1, 2, 3, 4, 5].map(crew))).keys()].sort();
    await deleteSnapshotsInRange(db, ['ptn_a', 'ptn_b'], { after: crew(1), upTo: crew(4) }, [crew(3)]);
    const gone = ['ptn_a|' + crew(2), 'ptn_a|' + crew(4), 'ptn_b|' + crew(2), 'ptn_b|' + crew(4)];
    assert.deepEqual(
      await left(),
      all
        .map((s) => `${s.partnerId}|${s.crewUniqueId}`)
        .filter((k) => !gone.includes(k))
        .sort(),
    );
    await deleteSnapshotsInRange(db, ['ptn_a'], { after: crew(3), upTo: null }, []);
    await deleteSnapshotsInRange(db, ['ptn_c'], { after: null, upTo: crew(1) }, []);
    await deleteSnapshotsInRange(db, [], { after: null, upTo: null }, []);
    assert.deepEqual(await left(), [
      `ptn_a|${crew(1)}`,
      `ptn_a|${crew(3)}`,
      `ptn_b|${crew(1)}`,
      `ptn_b|${crew(3)}`,
      `ptn_b|${crew(5)}`,
      `ptn_c|${crew(2)}`,
      `ptn_c|${crew(3)}`,
      `ptn_c|${crew(4)}`,
      `ptn_c|${crew(5)}`,
    ]);
  });

  it('the cursor: undefined until saved, then the last one saved', async () => {
    const db = store().db;
    assert.equal(await findSyncCursor(db), undefined);
    await saveSyncCursor(db, { position: null, windowDays: 30, today: '2026-11-22' });
    const next = { position: { tx: 7, seq: 42 }, windowDays: 60, today: '2026-11-23' };
    await saveSyncCursor(db, next);
    assert.deepEqual(await findSyncCursor(db), next);
  });

  it("a partner's state: a baseline run records both times; a later run only the last run; without a baseline nothing", async () => {
    const db = store().db;
    assert.equal(await findSyncState(db, 'ptn_a'), undefined);
    await recordSyncRun(db, 'ptn_a', '2026-11-22T09:00:00.000Z', false);
    assert.equal(await findSyncState(db, 'ptn_a'), undefined, 'not a baseline: nothing to update');
    await recordSyncRun(db, 'ptn_a', T, true);
    await recordSyncRun(db, 'ptn_a', '2026-11-22T10:15:00.000Z', false);
    assert.deepEqual(await findSyncState(db, 'ptn_a'), { baselineAt: T, lastRunAt: '2026-11-22T10:15:00.000Z' });
    await recordSyncRun(db, 'ptn_a', '2026-11-23T00:00:00.000Z', true);
    assert.deepEqual(await findSyncState(db, 'ptn_a'), { baselineAt: '2026-11-23T00:00:00.000Z', lastRunAt: '2026-11-23T00:00:00.000Z' });
  });
});
