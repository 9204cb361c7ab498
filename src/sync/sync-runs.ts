import type { Kysely } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import { syncRunOutcome, type RunPhases } from '../domain/sync-run.ts';
import type { SyncRunKind } from '../domain/vocabulary.ts';
import type { Database } from '../store/database.ts';
import { finishSyncRun, insertSyncRun } from '../store/repositories/sync-runs-repo.ts';
import type { PartnerTally } from './delivery/delivery-deps.ts';

/** What a run reports that its record needs (run-sync.ts's SyncSummary has it). */
export interface RunCounts {
  created: Map<string, number>;
  stopped: boolean;
  phases: RunPhases;
  delivery: { totals: PartnerTally; errors: readonly unknown[] } | null;
}

/**
 * Runs one (not dry) sync run recorded in `sync_runs`: `running` from its start, then its counts
 * and outcome, `error` when it throws. Times are the real clock (`wallClock`): monitoring compares
 * them with its own, also for a run under SVC_NOW. A store that refuses the record fails the run,
 * as it would fail the run's own writes.
 */
export async function recordedSyncRun<S extends RunCounts>(
  db: Kysely<Database>,
  run: { runId: string; kind: SyncRunKind; wallClock: Clock },
  body: () => Promise<S>,
): Promise<S> {
  await insertSyncRun(db, { runId: run.runId, kind: run.kind, startedAt: run.wallClock().toISOString() });
  let summary: S;
  try {
    summary = await body();
  } catch (err) {
    await finishSyncRun(db, run.runId, run.wallClock().toISOString(), {
      outcome: 'error',
      eventsCreated: 0,
      delivered: 0,
      deadLettered: 0,
      deliveryErrors: 0,
    }).catch(() => {});
    throw err;
  }
  const totals = summary.delivery?.totals;
  const counts = {
    eventsCreated: [...summary.created.values()].reduce((a, b) => a + b, 0),
    delivered: totals?.delivered ?? 0,
    deadLettered: totals?.deadLettered ?? 0,
    deliveryErrors: (summary.delivery?.errors.length ?? 0) + (totals?.failed ?? 0),
  };
  await finishSyncRun(db, run.runId, run.wallClock().toISOString(), {
    ...counts,
    outcome: syncRunOutcome({ stopped: summary.stopped, ...counts }),
    phases: summary.phases,
  });
  return summary;
}
