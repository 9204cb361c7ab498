import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import fc from 'fast-check';
import { NO_SPANS, type Spans } from '../../src/services/plumbing/spans.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/database.ts';
import { findDiffRound } from '../../src/store/repositories/diff-shares-repo.ts';
import { joinDiffRound } from '../../src/sync/diff/join-round.ts';
import { runDiff, type DiffDeps } from '../../src/sync/diff/run-diff.ts';
import { acquireSyncLease, holderName } from '../../src/sync/sync-lease.ts';
import { apply, op } from '../support/change-ops.ts';
import {
  CREW,
  diffDeps,
  fullDiffEvents,
  incrementalRun,
  outboxEvents,
  plannedEvents,
  seedWorld,
  START,
  type EventKey,
} from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * The diff split across processes by partner (src/sync/diff/shares.ts) must create the events one
 * process creates. Each "process" here has a store connection of its own; the one that was killed
 * runs in a process of its own.
 */
const RUNS = Number(process.env.SVC_DIFF_RUNS ?? 3);

const added = (after: EventKey[], before: EventKey[]) => {
  const left = [...before];
  return after.filter((e) => {
    const i = left.indexOf(e);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
};

let runs = 0;
/** Shares the workers diffed, over every split run of the file: the split is exercised, not only the run's own claims. */
let workerShares = 0;

/**
 * One run under the sync lease with its diff split into `processes` shares, the other shares
 * claimed by `workers` (each on a connection of its own) while they can; the events it created.
 */
async function splitRun(db: Db, workers: Db[], now: () => Date, over: Partial<DiffDeps>, processes: number): Promise<EventKey[]> {
  const before = await outboxEvents(db);
  const runId = `run_split_${++runs}`;
  const lease = await acquireSyncLease(db, holderName(runId, { pid: process.pid, host: 'test-host' }), now);
  const stop = new AbortController();
  try {
    const joined = workers.map((w, i) =>
      joinDiffRound(w, diffDeps(now, { ...over, runId: `dw_${runs}_${i}`, sharePollMs: 2, joinWaitMs: 60_000, signal: stop.signal })),
    );
    const lead = await runDiff(db, diffDeps(now, { ...over, runId, shares: processes, sharePollMs: 2 }));
    stop.abort();
    for (const j of await Promise.all(joined)) workerShares += j.shares.length;
    assert.equal(lead.end, 'done');
  } finally {
    stop.abort();
    await lease.release();
  }
  assert.equal(await findDiffRound(db), undefined, 'the round is closed');
  return added(await outboxEvents(db), before);
}

describeEachStore('a diff split across processes by partner creates the events one process creates', ({ store, url }) => {
  const others: Store[] = [];
  it('after every step of random write sequences, with 2 and 3 processes, and a rerun creates nothing', async () => {
    const db = store().db;
    for (let i = 0; i < 2; i++) others.push(await openStore(url()));
    await seedWorld(db);
    const clock = { now: START };
    const now = () => new Date(clock.now);
    assert.deepEqual(await splitRun(db, [], now, {}, 2), [], 'the first run records baselines');
    let eventsSeen = 0;
    const sizes = fc.record({
      pageSize: fc.integer({ min: 1, max: 4 }),
      changeChunk: fc.integer({ min: 1, max: 6 }),
      processes: fc.integer({ min: 2, max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), sizes, async (ops, { processes, ...pages }) => {
        for (const o of ops) {
          await apply(db, o, clock);
          const expected = await plannedEvents(db, now, pages);
          assert.deepEqual(expected, await fullDiffEvents(db, now), 'one process creates what a full re-diff would');
          const workers = others.slice(0, processes - 1).map((s) => s.db);
          assert.deepEqual(await splitRun(db, workers, now, pages, processes), expected, `after ${JSON.stringify(o)}`);
          eventsSeen += expected.length;
          assert.deepEqual(await splitRun(db, workers, now, pages, processes), [], 'a rerun creates nothing');
        }
      }),
      { numRuns: RUNS },
    );
    assert.ok(eventsSeen > 0, 'the comparison saw events');
    assert.ok(workerShares > 0, 'workers diffed shares');
  });
  it('closes the extra connections', async () => {
    for (const s of others.splice(0)) await s.close();
  });
});

const WORKER = fileURLToPath(new URL('../support/paused-diff-worker.ts', import.meta.url));

/** Every crew member's training document retitled: events for every partner that sees documents. */
async function retitleDocuments(db: Db): Promise<void> {
  for (const crew of CREW)
    await db
      .updateTable('documents')
      .set({ title: `BST ${crew} renewed` })
      .where('document_id', '=', `doc_${crew}_3`)
      .execute();
}

describeEachStore('a diff process killed mid-share (SIGKILL)', ({ store, url }) => {
  it('leaves its share to be claimed again once its claim lapses: nothing lost, nothing created twice', async () => {
    const db = store().db;
    const now = () => new Date(START);
    await seedWorld(db);
    await incrementalRun(db, now);
    await retitleDocuments(db);
    const expected = await plannedEvents(db, now, { pageSize: 1 });
    assert.ok(expected.length > 0);
    const before = await outboxEvents(db);

    const runId = 'run_killed_worker';
    const lease = await acquireSyncLease(db, holderName(runId, { pid: process.pid, host: 'test-host' }), now);
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, url(), 'dw_killed'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(child, 'exit');
    const paged = new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const m = /^page (\d+)$/.exec(line);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', () => reject(new Error('the worker exited before it committed a page with events')));
    });
    // This run's first page waits until the worker has committed one of its own share and been killed.
    let childEvents = 0;
    let killed: Promise<void> | null = null;
    const spans: Spans = {
      ...NO_SPANS,
      span: async (name, facts, step) => {
        killed ??= paged.then(async (events) => {
          childEvents = events;
          child.kill('SIGKILL');
          await exited;
        });
        await killed;
        return NO_SPANS.span(name, facts, step);
      },
    };
    let reported: number | undefined;
    try {
      const lead = await runDiff(db, diffDeps(now, { runId, pageSize: 1, shares: 2, shareClaimMs: 3000, sharePollMs: 20, spans }));
      assert.equal(lead.end, 'done');
      reported = lead.results.reduce((n, r) => n + Object.values(r.events).reduce((a, b) => a + b, 0), 0);
    } finally {
      child.kill('SIGKILL');
      await lease.release();
    }
    assert.equal(child.signalCode, 'SIGKILL');
    assert.ok(childEvents > 0, 'the killed worker had committed events of its share');
    assert.deepEqual(added(await outboxEvents(db), before), expected, 'every event once');
    assert.equal(reported, expected.length, "the run's count holds the events the killed worker committed");
    assert.deepEqual((await incrementalRun(db, now)).events, [], 'nothing left for the next run');
    assert.equal((await db.selectFrom('changes').select('seq').execute()).length, 0, 'the round consumed the changes');
  });
});
