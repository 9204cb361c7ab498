import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { replaceConsents } from '../../src/store/repositories/reference-data-repo.ts';
import { fullDiffEvents, incrementalRun, plannedEvents, seedWorld, START } from '../support/change-world.ts';
import { apply, LOCAL, op } from '../support/change-ops.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * Model-based differential test: random sequences of writes (plain SQL and the fixture loader) and
 * clock moves; after every step the incremental run must create exactly the events a full re-diff
 * of the same state would (computed first, as a dry run), its own dry run (`svc sync --dry-run`)
 * plans the same, and a rerun creates nothing. SVC_DIFF_RUNS=200 for a longer search.
 */
const RUNS = Number(process.env.SVC_DIFF_RUNS ?? 4);

describeEachStore('incremental sync creates exactly the events a full re-diff would', ({ store }) => {
  it('after every step of random write sequences, on plain SQL and loader writes and clock moves', async () => {
    const db = store().db;
    await seedWorld(db);
    const clock = { now: START };
    const now = () => new Date(clock.now);
    assert.equal((await incrementalRun(db, now)).events.length, 0, 'the first run records a baseline');
    let incrementalSteps = 0;
    let eventsSeen = 0;
    // Pages and change chunks of generated small sizes, so a run spans several pages (each read while
    // the one before is written) and several chunks of changes, cut at different places.
    const sizes = fc.record({ pageSize: fc.integer({ min: 1, max: 4 }), changeChunk: fc.integer({ min: 1, max: 6 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), sizes, async (ops, pages) => {
        for (const o of ops) {
          await apply(db, o, clock);
          const expected = await fullDiffEvents(db, now);
          assert.deepEqual(await plannedEvents(db, now, pages), expected, `a dry run plans them, after ${JSON.stringify(o)}`);
          const run = await incrementalRun(db, now, pages);
          assert.deepEqual(run.events, expected, `after ${JSON.stringify(o)}`);
          if (LOCAL.has(o.kind)) assert.equal(run.full, false, `a ${o.kind} write must not need a full pass`);
          if (!run.full) incrementalSteps++;
          eventsSeen += run.events.length;
          assert.deepEqual((await incrementalRun(db, now, pages)).events, [], 'a rerun creates nothing');
        }
      }),
      { numRuns: RUNS },
    );
    assert.ok(incrementalSteps > 0 && eventsSeen > 0, 'the comparison exercised incremental runs that created events');
  });
});

describeEachStore('a dry run plans what the incremental run creates', ({ store }) => {
  it('a dry run plans an event once when the consent changes naming it span several chunks of changes', async () => {
    const db = store().db;
    const now = () => new Date(START);
    await seedWorld(db);
    await replaceConsents(db, 'crew_1', 'ptn_mgmt', []);
    await incrementalRun(db, now);
    // Nine captured changes about one crew member and one partner: four rows in, then four out and one in.
    await replaceConsents(db, 'crew_1', 'ptn_mgmt', ['profile', 'documents', 'compliance', 'status']);
    await replaceConsents(db, 'crew_1', 'ptn_mgmt', ['profile']);
    const expected = await fullDiffEvents(db, now);
    assert.ok(
      expected.some((e) => e.includes('crew.profile.updated')),
      'the partner gained profile consent',
    );
    assert.deepEqual(await plannedEvents(db, now, { changeChunk: 1, pageSize: 3 }), expected);
    assert.deepEqual((await incrementalRun(db, now, { changeChunk: 1, pageSize: 3 })).events, expected);
  });
});
