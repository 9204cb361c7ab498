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

/**
 * Exit code of a `svc sync` run that dead-lettered nothing but left deliveries not getting through
 * (README, exit codes): an active endpoint whose latest attempt failed (retries wait, nothing is
 * dead yet), or a disabled endpoint, whose events wait until an operator re-enables it. Read from the endpoints' stored health
 * after delivery, so every run says it while the endpoint stays down, also a run that attempted
 * nothing because the next retry is not due. Outside sysexits' range: no standard meaning fits.
 */
export const EXIT_SYNC_DELIVERIES_FAILING = 79;

/** 0; EXIT_SYNC_PROBLEMS when the run dead-lettered or could not record; else EXIT_SYNC_DELIVERIES_FAILING while an endpoint is down. */
export function syncExitCode(summary: SyncSummary): number {
  const delivery = summary.delivery;
  if (!delivery) return 0;
  if (delivery.totals.deadLettered > 0 || delivery.errors.length > 0) return EXIT_SYNC_PROBLEMS;
  const { failing, disabled } = summary.unhealthy;
  return failing.length > 0 || disabled.length > 0 ? EXIT_SYNC_DELIVERIES_FAILING : 0;
}

/** What stderr says about a run that exits with `exitCode` (not 0, not a signal's). */
export function syncProblemLine(summary: SyncSummary, exitCode: number): string {
  if (exitCode !== EXIT_SYNC_DELIVERIES_FAILING) {
    return `svc: the run dead-lettered events or could not record deliveries (see above, and \`svc admin list-dead-letters\`); exit ${exitCode}`;
  }
  const { failing, disabled } = summary.unhealthy;
  const parts = [
    ...(failing.length > 0 ? [`failing (latest attempt failed, retries wait): ${failing.join(', ')}`] : []),
    ...(disabled.length > 0 ? [`disabled (events wait until it is re-enabled): ${disabled.join(', ')}`] : []),
  ];
  return `svc: deliveries are not getting through to the endpoints of ${parts.join('; ')} (\`svc admin list-webhooks\`, \`svc admin deliveries --partner ID\`); exit ${exitCode}`;
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
