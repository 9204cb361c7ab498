import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../../src/store/database.ts';
import { findSyncCursor } from '../../src/store/repositories/sync-state-repo.ts';
import { runDiff, type DiffDeps } from '../../src/sync/diff/run-diff.ts';
import { diffDeps, fullDiffEvents, incrementalRun, outboxEvents, seedWorld, START } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';

const now = () => new Date(START);

/** A seeded world whose first run is done, then six crew members' profiles changed: events for more than two pages. */
async function worldWithChanges(db: Db): Promise<string[]> {
  await seedWorld(db);
  await incrementalRun(db, now);
  for (const crew of ['crew_1', 'crew_2', 'crew_3', 'crew_4', 'crew_5', 'crew_6']) {
    await db.updateTable('crew').set({ profile_updated_at: '2026-11-22T11:00:00.000Z' }).where('crew_unique_id', '=', crew).execute();
  }
  return fullDiffEvents(db, now);
}

/** Runs the diff, asking it to stop once its second page has committed. */
async function stoppedAfterTwoPages(db: Db, over: Partial<DiffDeps>) {
  const stop = new AbortController();
  let pages = 0;
  return runDiff(db, diffDeps(now, { ...over, signal: stop.signal }), () => {
    if (++pages === 2) stop.abort();
  });
}

// A describe each, so each test has a store of its own to seed.
for (const [pass, over] of [
  ['the incremental passes', {}],
  ['a full pass', { full: true }],
] as const) {
  describeEachStore(`a diff asked to stop in ${pass} ends at a page boundary, as a value`, ({ store }) => {
    it('reports stopped, keeps what it committed, and the next run sends the rest, nothing twice', async () => {
      const db = store().db;
      const expected = await worldWithChanges(db);
      assert.ok(expected.length >= 6);
      const before = await outboxEvents(db);
      const cursor = await findSyncCursor(db);

      const run = await stoppedAfterTwoPages(db, over);
      assert.equal(run.end, 'stopped');
      const written = (await outboxEvents(db)).filter((e) => !before.includes(e));
      const reported = run.results.reduce((sum, r) => sum + Object.values(r.events).reduce((a, b) => a + b, 0), 0);
      assert.equal(reported, written.length, 'the results count what the committed pages wrote');
      assert.ok(written.length > 0 && written.length < expected.length, 'stopped between pages that both had events');
      if ('full' in over) assert.deepEqual(await findSyncCursor(db), cursor, 'a stopped full pass leaves the cursor as it was');

      const rest = await incrementalRun(db, now);
      assert.deepEqual([...written, ...rest.events].sort(), expected);
      assert.deepEqual(await fullDiffEvents(db, now), [], 'nothing left to send');
    });
  });
}

describeEachStore('a diff not asked to stop', ({ store }) => {
  it('reports done', async () => {
    const db = store().db;
    await worldWithChanges(db);
    assert.equal((await runDiff(db, diffDeps(now))).end, 'done');
  });
});
