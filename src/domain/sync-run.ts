import type { SyncPhase, SyncRunKind, SyncRunOutcome } from './vocabulary.ts';

/** One recorded `svc sync` run (docs/operations.md). */
export interface SyncRun {
  runId: string;
  kind: SyncRunKind;
  startedAt: string;
  finishedAt: string | null;
  outcome: SyncRunOutcome;
  eventsCreated: number;
  delivered: number;
  deadLettered: number;
  deliveryErrors: number;
  /** Where its time went; null while it runs, and for runs recorded before phases were. */
  phases: RunPhases | null;
}

/** Seconds per phase of a run, and the pages of crew its diff committed (docs/operations.md). */
export interface RunPhases {
  seconds: Record<SyncPhase, number>;
  pages: number;
}

/** What a run's end records. */
export type SyncRunResult = Pick<SyncRun, 'outcome' | 'eventsCreated' | 'delivered' | 'deadLettered' | 'deliveryErrors'> & {
  phases?: RunPhases;
};

/** Events delivered a second of the delivery phase (0 when it took no time). */
export function deliveriesPerSecond(delivered: number, phases: RunPhases): number {
  const seconds = phases.seconds.deliver;
  return seconds > 0 ? delivered / seconds : 0;
}

/** A finished run's outcome from its counts: failures win over a clean finish, a stop over both. */
export function syncRunOutcome(counts: { stopped: boolean; deadLettered: number; deliveryErrors: number }): SyncRunOutcome {
  if (counts.stopped) return 'stopped';
  return counts.deadLettered > 0 || counts.deliveryErrors > 0 ? 'delivery_failures' : 'ok';
}
