import type { Config } from '../config/config.ts';
import { AppError, isAppError } from '../domain/app-error.ts';
import { storeAnswers } from '../services/store-health.ts';
import type { Store } from '../store/connect.ts';
import { isStoreConnectionError } from '../store/store-errors.ts';
import type { SyncSummary } from '../sync/run-sync.ts';

/**
 * Exit code of a `svc sync` run that finished but dead-lettered events or recorded delivery errors
 * (README, exit codes): sysexits' EX_PROTOCOL, since a receiver (or the store, mid-delivery) refused
 * what the run sent. Cron and monitoring read it without parsing the summary.
 */
export const EXIT_SYNC_PROBLEMS = 76;

/** 0, or EXIT_SYNC_PROBLEMS when the run dead-lettered an event or recorded a delivery error. */
export function syncExitCode(summary: SyncSummary): number {
  const delivery = summary.delivery;
  if (!delivery) return 0;
  return delivery.totals.deadLettered > 0 || delivery.errors.length > 0 ? EXIT_SYNC_PROBLEMS : 0;
}

/**
 * A run on a time-travelling clock (`SVC_NOW`) writes events, snapshots and a sync cursor dated
 * then, which every later run on the real clock builds on (docs/webhooks.md, "SVC_NOW"). Such a
 * run may only look (`--dry-run`) unless the operator says it is meant to write.
 */
export function assertClockMayWrite(config: Config, dryRun: boolean): void {
  if (config.now === undefined || dryRun || config.nowAllowWrites) return;
  throw new AppError(
    'invalid_setting',
    `SVC_NOW is set (${config.now}): svc sync writes and delivers nothing on a moved clock ` +
      'unless SVC_NOW_ALLOW_WRITES=1 is set too (--dry-run still works); see docs/webhooks.md',
  );
}

const STORE_PROBE_MS = 2000;

/**
 * What a sync run that failed tells the operator: a store that went away mid-run (a connection
 * error, or a store that no longer answers) becomes store_unavailable (exit 69) in one line naming
 * the store, without a stack trace; anything else is passed on as it is.
 */
export async function storeOutageOr(err: unknown, store: Store): Promise<unknown> {
  if (isAppError(err)) return err;
  if (!isStoreConnectionError(err) && (await storeAnswers(store.db, STORE_PROBE_MS))) return err;
  const cause = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
  return new AppError(
    'store_unavailable',
    `the store ${store.displayUrl} became unavailable during the sync run (${cause}); ` +
      'what the run committed stays, and the next run takes over its lease and claims and sends the rest with the same event ids',
    { cause: err },
  );
}
