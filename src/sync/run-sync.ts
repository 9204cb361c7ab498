import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { RunPhases } from '../domain/sync-run.ts';
import { pruneAuditLog } from '../services/audit-retention.ts';
import { pruneUnusedFiles } from '../services/files/unused-files.ts';
import { pruneEvents } from '../services/events/prune.ts';
import { NO_SPANS, type Spans } from '../services/plumbing/spans.ts';
import type { Database } from '../store/database.ts';
import { unhealthyEndpoints, type UnhealthyEndpoints } from '../store/repositories/operations-repo.ts';
import { countHeldEvents, type DueEvent } from '../store/repositories/outbox-repo.ts';
import { deliverDue, listAllDue } from './delivery/run-delivery.ts';
import type { DeliveryReport } from './delivery/outcomes.ts';
import type { DeliveryDeps } from './delivery/delivery-deps.ts';
import { PhaseTimes, type Stopwatch } from './phase-times.ts';
import { acquireSyncLease, holderName, type HolderCheck, type LeaseOwner } from './sync-lease.ts';
import { recordedSyncRun } from './sync-runs.ts';

/** What the fleet diff is told about the run it is part of. */
export interface DiffContext {
  runId: string;
  now: Date;
  /** Compute and report, write nothing. */
  dryRun: boolean;
  /** Aborted when the run is asked to stop: the diff ends at its next transaction boundary, keeping what it committed. */
  signal?: AbortSignal;
  /** Counts each page's diff and write time, and the pages (src/sync/phase-times.ts). */
  phases?: PhaseTimes;
  /** A span per page written, when tracing is on. */
  spans?: Spans;
}

/** A line of a dry run's report: an event the diff planned (domain/events.ts PlannedEvent) as the operator reads it. */
export interface DryRunEvent {
  partnerId: string;
  eventType: string;
  crewUniqueId: string | null;
  /** Short words for the operator: which document, which change. */
  note?: string;
}

export interface DiffReport {
  /** Events written to the outbox (or that would be, in a dry run), per partner. */
  created: Map<string, number>;
  /** In a dry run: the events it would create. */
  planned?: DryRunEvent[];
  /** Partners whose first run this was: their baseline is recorded and nothing is sent for it. */
  baselines?: string[];
}

/**
 * The step that puts new events in the outbox before delivery: the fleet diff (src/sync/fleet-diff-step.ts).
 * It writes each page's events and snapshots in one transaction, so a crash at any point loses nothing.
 */
export type DiffStep = (db: Kysely<Database>, ctx: DiffContext) => Promise<DiffReport>;

export interface SyncOptions {
  dryRun?: boolean;
  /** Absent: the run only delivers what the outbox holds. */
  diff?: DiffStep;
  runId?: string;
  leaseMs?: number;
  /** The process taking the lease, named in it (default: this process on this host). */
  owner?: LeaseOwner;
  /** Take over a lease whose holder is gone from this machine, with its claims (sync-lease.ts). */
  takeOver?: HolderCheck;
  /** Delete delivered and dead events older than this many days at the end of the run (the events feed's retention). */
  retentionDays?: number;
  /** Delete audit rows older than this many days, on the first run of each UTC day (0: keep them). */
  auditRetentionDays?: number;
  /**
   * Run the delivery stage alone, without the diff and outside the sync lease: several such
   * runs (on several hosts) may share one outbox, each event claimed by one of them at a time.
   */
  deliverOnly?: boolean;
  /** Times the run's phases (default: `performance.now`). */
  stopwatch?: Stopwatch;
}

/** What a sync run did (or, dry, would do). */
export interface SyncSummary {
  runId: string;
  dryRun: boolean;
  /** Delivery only (`--deliver-only`): no diff ran, so nothing was created. */
  deliverOnly: boolean;
  /** New events per partner. */
  created: Map<string, number>;
  /** Partners whose baseline this run recorded (their first run: nothing sent for it). */
  baselines: string[];
  /** Dry run: the events the diff would create. */
  planned: DryRunEvent[];
  /** Dry run: the outbox events a run would attempt now. */
  due: DueEvent[];
  /** Null in a dry run. */
  delivery: DeliveryReport | null;
  /** Pending events of partners without an active endpoint, kept for later. */
  held: Map<string, number>;
  /** The run was asked to stop (`deps.drain`) before it finished. */
  stopped: boolean;
  /** Events deleted as past the retention. */
  pruned: number;
  /** Audit rows deleted as past their retention (only the first run of a UTC day prunes). */
  auditPruned: number;
  /** Files no document, photo or held change has used for 48 hours, deleted (only the first run of a UTC day prunes). */
  filesPruned: number;
  /** After delivery (empty in a dry run): endpoints whose deliveries are not getting through. */
  unhealthy: UnhealthyEndpoints;
  /** Where the run's time went, and the pages of crew its diff went through. */
  phases: RunPhases;
}

/**
 * One `svc sync`: takes the store-wide lease (a second run at once fails with sync_locked), lets
 * the diff write its events to the outbox, then delivers everything due. A dry run takes no
 * lease and writes nothing; a deliver-only run takes no lease and runs no diff. Stopped
 * (`deps.drain`), it ends at the next safe point and releases the lease; `summary.stopped` says so.
 */
export async function runSync(db: Kysely<Database>, deps: DeliveryDeps, options: SyncOptions = {}): Promise<SyncSummary> {
  const runId = options.runId ?? `run_${randomBytes(6).toString('hex')}`;
  const kind = options.dryRun ? 'dry_run' : options.deliverOnly ? 'deliver_only' : 'sync';
  // The run's span holds its diff pages' and its delivery attempts' (docs/operations.md, "Traces").
  return (deps.spans ?? NO_SPANS).span('svc.sync', { 'svc.run_id': runId, 'svc.run_kind': kind }, async (notes) => {
    const summary = await leasedRun(db, deps, options, runId);
    notes.set({
      'svc.events_created': [...summary.created.values()].reduce((sum, n) => sum + n, 0),
      'svc.stopped': summary.stopped,
    });
    return summary;
  });
}

/** The run under its lease (when it takes one), recorded in sync_runs unless dry. */
async function leasedRun(db: Kysely<Database>, deps: DeliveryDeps, options: SyncOptions, runId: string): Promise<SyncSummary> {
  const dryRun = options.dryRun ?? false;
  const summary: SyncSummary = {
    runId,
    dryRun,
    deliverOnly: options.deliverOnly ?? false,
    created: new Map(),
    baselines: [],
    planned: [],
    due: [],
    delivery: null,
    held: new Map(),
    stopped: false,
    pruned: 0,
    auditPruned: 0,
    filesPruned: 0,
    unhealthy: { failing: [], disabled: [] },
    phases: { seconds: { read: 0, diff: 0, write: 0, deliver: 0 }, pages: 0 },
  };
  const owner = options.owner ?? { pid: process.pid, host: hostname() };
  const lease =
    dryRun || options.deliverOnly
      ? undefined
      : await acquireSyncLease(db, holderName(runId, owner), deps.clock, options.leaseMs, options.takeOver);
  try {
    if (dryRun) return await runStages(db, deps, options, summary);
    // Recorded once the lease is held: a run refused by the lock did not run.
    const kind = options.deliverOnly ? 'deliver_only' : 'sync';
    return await recordedSyncRun(db, { runId, kind, wallClock: deps.wallClock }, () => runStages(db, deps, options, summary));
  } finally {
    await lease?.release();
  }
}

/** The stages of one run, under its lease when it takes one: the diff, delivery, pruning. */
async function runStages(db: Kysely<Database>, deps: DeliveryDeps, options: SyncOptions, summary: SyncSummary): Promise<SyncSummary> {
  const { runId, dryRun } = summary;
  const phases = new PhaseTimes(options.stopwatch);
  const diff = options.diff;
  if (diff && !options.deliverOnly && !deps.drain?.aborted) {
    const report = await phases.diffStage(() =>
      diff(db, { runId, now: deps.clock(), dryRun, signal: deps.drain, phases, spans: deps.spans }),
    );
    summary.created = report.created;
    summary.planned = report.planned ?? [];
    summary.baselines = report.baselines ?? [];
  }
  // deliverDue claims nothing once drained, and reports what it left.
  if (dryRun) summary.due = await listAllDue(db, deps.clock());
  else {
    summary.delivery = await phases.time('deliver', () => deliverDue(db, deps, runId));
    summary.unhealthy = await unhealthyEndpoints(db);
  }
  summary.phases = phases.report();
  summary.held = await countHeldEvents(db);
  summary.stopped = deps.drain?.aborted ?? false;
  // Pruning is the leased run's job: deliver-only runs leave it alone.
  if (!dryRun && !options.deliverOnly && !summary.stopped) {
    if (options.retentionDays !== undefined) summary.pruned = await pruneEvents(db, deps.clock, options.retentionDays);
    if (options.auditRetentionDays !== undefined) summary.auditPruned = await pruneAuditLog(db, deps.clock, options.auditRetentionDays);
    summary.filesPruned = await pruneUnusedFiles(db, deps.clock);
  }
  return summary;
}
