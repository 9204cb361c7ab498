import type { SyncRunKind, SyncRunOutcome } from './vocabulary.ts';

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
}

/** What a run's end records. */
export type SyncRunResult = Pick<SyncRun, 'outcome' | 'eventsCreated' | 'delivered' | 'deadLettered' | 'deliveryErrors'>;

/** A finished run's outcome from its counts: failures win over a clean finish, a stop over both. */
export function syncRunOutcome(counts: { stopped: boolean; deadLettered: number; deliveryErrors: number }): SyncRunOutcome {
  if (counts.stopped) return 'stopped';
  return counts.deadLettered > 0 || counts.deliveryErrors > 0 ? 'delivery_failures' : 'ok';
}
