import type { Selectable } from 'kysely';
import type { RunPhases, SyncRun, SyncRunResult } from '../../domain/sync-run.ts';
import type { SyncRunKind, SyncRunOutcome } from '../../domain/vocabulary.ts';
import type { Db, SyncRunsTable } from '../database.ts';

function toSyncRun(row: Selectable<SyncRunsTable>): SyncRun {
  return {
    runId: row.run_id,
    kind: row.kind,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    outcome: row.outcome,
    eventsCreated: Number(row.events_created),
    delivered: Number(row.delivered),
    deadLettered: Number(row.dead_lettered),
    deliveryErrors: Number(row.delivery_errors),
    phases: phasesOf(row),
  };
}

function phasesOf(row: Selectable<SyncRunsTable>): RunPhases | null {
  if (row.pages === null) return null;
  const seconds = (ms: number | null) => Number(ms ?? 0) / 1000;
  return {
    seconds: { read: seconds(row.read_ms), diff: seconds(row.diff_ms), write: seconds(row.write_ms), deliver: seconds(row.deliver_ms) },
    pages: Number(row.pages),
  };
}

export async function insertSyncRun(db: Db, run: { runId: string; kind: SyncRunKind; startedAt: string }): Promise<void> {
  await db
    .insertInto('sync_runs')
    .values({
      run_id: run.runId,
      kind: run.kind,
      started_at: run.startedAt,
      outcome: 'running',
      events_created: 0,
      delivered: 0,
      dead_lettered: 0,
      delivery_errors: 0,
    })
    .execute();
}

export async function finishSyncRun(db: Db, runId: string, finishedAt: string, result: SyncRunResult): Promise<void> {
  await db
    .updateTable('sync_runs')
    .set({
      finished_at: finishedAt,
      outcome: result.outcome,
      events_created: result.eventsCreated,
      delivered: result.delivered,
      dead_lettered: result.deadLettered,
      delivery_errors: result.deliveryErrors,
      ...(result.phases && {
        read_ms: Math.round(result.phases.seconds.read * 1000),
        diff_ms: Math.round(result.phases.seconds.diff * 1000),
        write_ms: Math.round(result.phases.seconds.write * 1000),
        deliver_ms: Math.round(result.phases.seconds.deliver * 1000),
        pages: result.phases.pages,
      }),
    })
    .where('run_id', '=', runId)
    .execute();
}

/**
 * Ends a run that died without finishing (its lease was taken over or released for it): outcome
 * `error`, finished when that was noticed. A run that did finish is left as it recorded itself.
 */
export async function endAbandonedSyncRun(db: Db, runId: string, noticedAt: string): Promise<void> {
  await db
    .updateTable('sync_runs')
    .set({ finished_at: noticedAt, outcome: 'error' })
    .where('run_id', '=', runId)
    .where('outcome', '=', 'running')
    .execute();
}

/** The run of this kind started last, finished or not. */
export async function latestSyncRun(db: Db, kind: SyncRunKind): Promise<SyncRun | undefined> {
  const row = await db
    .selectFrom('sync_runs')
    .selectAll()
    .where('kind', '=', kind)
    .orderBy('started_at', 'desc')
    .orderBy('run_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toSyncRun(row);
}

/**
 * When the last run of this kind that got to its end finished: with any outcome but `running`, or
 * only with one of `outcomes`.
 */
export async function lastSyncRunFinishedAt(db: Db, kind: SyncRunKind, outcomes?: readonly SyncRunOutcome[]): Promise<string | null> {
  let query = db
    .selectFrom('sync_runs')
    .select((eb) => eb.fn.max('finished_at').as('at'))
    .where('kind', '=', kind)
    .where('outcome', '<>', 'running');
  if (outcomes) query = query.where('outcome', 'in', outcomes);
  const row = await query.executeTakeFirst();
  return row?.at ?? null;
}
