import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../../src/store/database.ts';
import { runDiff } from '../../src/sync/diff/run-diff.ts';
import { addDays, diffDeps, fullDiffEvents, incrementalRun, outboxEvents, seedWorld, START } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';

// The passes hold no set that grows with the fleet or the burst (src/sync/diff/passes.ts): these
// are the behaviours that could differ from passes that remembered every crew member they met.

const start = () => new Date(START);
const monthLater = () => new Date(addDays(START, 30));

/** The crew members with a snapshot, each once, in id order. */
async function crewWithSnapshots(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('sync_snapshots').select('crew_unique_id').distinct().orderBy('crew_unique_id').execute();
  return rows.map((r) => r.crew_unique_id);
}

/** Crew members off every fleet: their assignments end. */
async function leave(db: Db, crew: readonly string[]): Promise<void> {
  await db.updateTable('assignments').set({ status: 'signed_off' }).where('crew_unique_id', 'in', crew).execute();
}

describeEachStore('a full pass forgets the crew who left page by page', ({ store }) => {
  it('stopped after its first page, it has forgotten those who left within that page only; a full run then forgets the rest', async () => {
    const db = store().db;
    await seedWorld(db);
    await incrementalRun(db, start);
    assert.deepEqual(await crewWithSnapshots(db), ['crew_1', 'crew_2', 'crew_3', 'crew_4', 'crew_5', 'crew_6']);
    await leave(db, ['crew_1', 'crew_6']);

    // Pages of two in crew-id order: crew_2 and crew_3 first, whose range holds crew_1; crew_6 is after the last page.
    const stop = new AbortController();
    const stopped = await runDiff(db, diffDeps(start, { full: true, signal: stop.signal }), () => stop.abort());
    assert.equal(stopped.end, 'stopped');
    assert.deepEqual(await crewWithSnapshots(db), ['crew_2', 'crew_3', 'crew_4', 'crew_5', 'crew_6']);

    assert.equal((await runDiff(db, diffDeps(start, { full: true }))).end, 'done');
    assert.deepEqual(await crewWithSnapshots(db), ['crew_2', 'crew_3', 'crew_4', 'crew_5']);
    assert.deepEqual(await fullDiffEvents(db, start), [], 'nothing left to send');
  });
});

describeEachStore('the run a month later, one crew member a page', ({ store }) => {
  it('diffs each crew member once, due for several partners or also changed, and sends what a full re-diff would', async () => {
    const db = store().db;
    await seedWorld(db);
    await incrementalRun(db, start);
    const at = addDays(START, 30);
    const due = await db
      .selectFrom('sync_snapshots')
      .select('crew_unique_id')
      .distinct()
      .where('next_due', '<=', at.slice(0, 10))
      .execute();
    const dueCrew = new Set(due.map((r) => r.crew_unique_id));
    const perCrew = await db
      .selectFrom('sync_snapshots')
      .select(['crew_unique_id', (eb) => eb.fn.count<number | string>('partner_id').as('n')])
      .where('next_due', '<=', at.slice(0, 10))
      .groupBy('crew_unique_id')
      .execute();
    assert.ok(
      perCrew.some((r) => Number(r.n) > 1),
      'a crew member is due for several partners',
    );
    // A due crew member changed too, and one changed without being due (when there is one).
    const changed = ['crew_2', ...['crew_1', 'crew_3', 'crew_4', 'crew_5', 'crew_6'].filter((c) => !dueCrew.has(c)).slice(0, 1)];
    assert.ok(dueCrew.has('crew_2'));
    await db.updateTable('crew').set({ profile_updated_at: at }).where('crew_unique_id', 'in', changed).execute();
    const expected = await fullDiffEvents(db, monthLater);
    assert.ok(expected.length > 0);

    const before = await outboxEvents(db);
    const dry = await runDiff(db, diffDeps(monthLater, { pageSize: 1, dryRun: true }));
    const planned = dry.results.flatMap((r) => (r.planned ?? []).map((e) => JSON.stringify([r.partnerId, e.type, e.crewUniqueId, e.data])));
    assert.deepEqual(planned.sort(), expected, 'a dry run plans each event once');

    let crewDiffed = 0;
    const run = await runDiff(db, diffDeps(monthLater, { pageSize: 1 }), (done) => (crewDiffed = done));
    assert.equal(run.end, 'done');
    assert.equal(crewDiffed, new Set([...dueCrew, ...changed]).size, 'each crew member due or changed is diffed once');
    assert.deepEqual(
      (await outboxEvents(db)).filter((e) => !before.includes(e)),
      expected,
    );
    assert.deepEqual(await fullDiffEvents(db, monthLater), [], 'nothing left to send');
  });
});
