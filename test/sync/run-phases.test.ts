import assert from 'node:assert/strict';
import { it } from 'node:test';
import { syncSummaryJson, phasesLine } from '../../src/cli/sync-json.ts';
import { latestSyncRun } from '../../src/store/repositories/sync-runs-repo.ts';
import { runDiff } from '../../src/sync/diff/run-diff.ts';
import { runSync, type DiffStep } from '../../src/sync/run-sync.ts';
import { diffDeps, incrementalRun, PARTNERS, seedWorld, START } from '../support/change-world.ts';
import { startReceiver } from '../support/receiver.ts';
import { describeEachStore } from '../support/stores.ts';
import { SECRET, seedEndpoint, testClock, testDeps } from '../support/sync-world.ts';

const now = () => new Date(START);
/** Milliseconds the test adds to the run's stopwatch where it knows which phase is under way. */
const PLANNING_MS = 5000;
const PER_DELIVERY_MS = 1000;

describeEachStore('a sync run says where its time went', ({ store }) => {
  it('read, diff, write and deliver seconds, deliveries a second, pages and events, in the summary, --json, the log line and sync_runs', async () => {
    const db = store().db;
    let offset = 0;
    const stopwatch = () => performance.now() + offset;
    const rx = await startReceiver(SECRET, () => {
      offset += PER_DELIVERY_MS;
      return { status: 204 };
    });
    try {
      await seedWorld(db);
      await db.deleteFrom('webhook_endpoints').execute();
      for (const p of PARTNERS) await seedEndpoint(db, p, rx.url, SECRET, ['crew.status.changed']);
      await incrementalRun(db, now);
      for (const crew of ['crew_1', 'crew_2', 'crew_3', 'crew_4', 'crew_5', 'crew_6']) {
        await db.updateTable('crew').set({ verification_status: 'pending' }).where('crew_unique_id', '=', crew).execute();
      }
      // Two crew a page, and time the test knows was spent planning: before the diff reads anything.
      const diff: DiffStep = async (trx, ctx) => {
        offset += PLANNING_MS;
        const { results } = await runDiff(trx, diffDeps(now, { phases: ctx.phases, changeChunk: 100 }));
        return { created: new Map(results.map((r) => [r.partnerId, Object.values(r.events).reduce((a, b) => a + b, 0)])) };
      };
      const summary = await runSync(db, testDeps(testClock(START)), { diff, stopwatch, runId: 'run_phases' });

      const created = [...summary.created.values()].reduce((a, b) => a + b, 0);
      const delivered = summary.delivery!.totals.delivered;
      assert.ok(created > 0 && delivered === created, `every event created was delivered (${created}, ${delivered})`);
      const { seconds, pages } = summary.phases;
      assert.equal(pages, 3, 'six crew members changed, two a page');
      assert.ok(seconds.read >= PLANNING_MS / 1000, `planning counts as reading: ${seconds.read}`);
      assert.ok(seconds.diff > 0 && seconds.write > 0, `diffing and writing took time: ${seconds.diff}, ${seconds.write}`);
      assert.ok(seconds.deliver >= (delivered * PER_DELIVERY_MS) / 1000, `each delivery counted: ${seconds.deliver}`);

      const json = syncSummaryJson(summary, 0).phases as Record<string, number>;
      assert.deepEqual(
        { ...json, deliveries_per_second: undefined },
        {
          read_seconds: seconds.read,
          diff_seconds: seconds.diff,
          write_seconds: seconds.write,
          deliver_seconds: seconds.deliver,
          deliveries_per_second: undefined,
          pages: 3,
          events: created,
        },
      );
      assert.ok(Math.abs(json.deliveries_per_second! - delivered / seconds.deliver) < 0.1);
      assert.ok(json.deliveries_per_second! <= 1000 / PER_DELIVERY_MS);
      assert.match(
        phasesLine(summary),
        new RegExp(
          `^phases: read [\\d.]+ s, diff [\\d.]+ s, write [\\d.]+ s, deliver [\\d.]+ s \\([\\d.]+ deliveries/s\\), 3 pages, ${created} events$`,
        ),
      );

      const recorded = await latestSyncRun(db, 'sync');
      assert.equal(recorded?.runId, 'run_phases');
      const kept = recorded?.phases;
      assert.equal(kept?.pages, 3);
      for (const phase of ['read', 'diff', 'write', 'deliver'] as const) {
        assert.ok(Math.abs((kept?.seconds[phase] ?? -1) - seconds[phase]) <= 0.001, `${phase} as the summary says`);
      }
    } finally {
      await rx.close();
    }
  });
});
