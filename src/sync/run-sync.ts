import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { pruneEvents } from '../services/events/prune.ts';
import type { Database } from '../store/database.ts';
import { countHeldEvents, type DueEvent } from '../store/repositories/outbox-repo.ts';
import { deliverDue, listAllDue } from './delivery/run-delivery.ts';
import type { DeliveryReport } from './delivery/outcomes.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import { acquireSyncLease, holderName, type LeaseOwner } from './sync-lease.ts';

/** What an event source is told about the run it is part of. */
export interface SourceContext {
  runId: string;
  now: Date;
  /** Compute and report, write nothing. */
  dryRun: boolean;
  /** Aborted when the run is asked to stop: a source ends at its next transaction boundary by throwing RunStopped. */
  signal?: AbortSignal;
}

/** Thrown by a source that stopped early because the run was asked to stop; what it committed stays. */
export class RunStopped extends Error {
  constructor() {
    super('the run was stopped');
  }
}

/** An event a dry run would create. */
export interface PlannedEvent {
  partnerId: string;
  eventType: string;
  crewUniqueId: string | null;
  /** Short words for the operator: which document, which change. */
  note?: string;
}

export interface SourceReport {
  /** Events written to the outbox (or that would be, in a dry run), per partner. */
  created: Map<string, number>;
  /** In a dry run: the events it would create. */
  planned?: PlannedEvent[];
}

/**
 * A step that puts new events in the outbox before delivery: the fleet diff. It writes its events
 * and its new snapshot in one transaction of its own, so a crash at any point loses nothing.
 */
export interface EventSource {
  readonly name: string;
  run(db: Kysely<Database>, ctx: SourceContext): Promise<SourceReport>;
}

export interface SyncOptions {
  dryRun?: boolean;
  sources?: readonly EventSource[];
  runId?: string;
  leaseMs?: number;
  /** The process taking the lease, named in it (default: this process on this host). */
  owner?: LeaseOwner;
  /** Delete delivered and dead events older than this many days at the end of the run (the events feed's retention). */
  retentionDays?: number;
  /**
   * Run the delivery stage alone, without the sources and outside the sync lease: several such
   * runs (on several hosts) may share one outbox, each event claimed by one of them at a time.
   */
  deliverOnly?: boolean;
}

/** What a sync run did (or, dry, would do). */
export interface SyncSummary {
  runId: string;
  dryRun: boolean;
  /** New events per partner. */
  created: Map<string, number>;
  /** Dry run: the events the sources would create. */
  planned: PlannedEvent[];
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
}

function mergeCounts(into: Map<string, number>, from: Map<string, number>): void {
  for (const [partnerId, n] of from) into.set(partnerId, (into.get(partnerId) ?? 0) + n);
}

/**
 * One `svc sync`: takes the store-wide lease (a second run at once fails with sync_locked), lets
 * each source write its events to the outbox, then delivers everything due. A dry run takes no
 * lease and writes nothing; a deliver-only run takes no lease and runs no source. Stopped
 * (`deps.drain`), it ends at the next safe point and releases the lease; `summary.stopped` says so.
 */
export async function runSync(db: Kysely<Database>, deps: DeliveryDeps, options: SyncOptions = {}): Promise<SyncSummary> {
  const runId = options.runId ?? `run_${randomBytes(6).toString('hex')}`;
  const dryRun = options.dryRun ?? false;
  const summary: SyncSummary = { runId, dryRun, created: new Map(), planned: [], due: [], delivery: null, held: new Map(), stopped: false, pruned: 0 };
  const owner = options.owner ?? { pid: process.pid, host: hostname() };
  const lease = dryRun || options.deliverOnly ? undefined : await acquireSyncLease(db, holderName(runId, owner), deps.clock, options.leaseMs);
  try {
    for (const source of options.deliverOnly ? [] : options.sources ?? []) {
      if (deps.drain?.aborted) break;
      try {
        const report = await source.run(db, { runId, now: deps.clock(), dryRun, signal: deps.drain });
        mergeCounts(summary.created, report.created);
        summary.planned.push(...(report.planned ?? []));
      } catch (err) {
        if (!(err instanceof RunStopped)) throw err;
      }
    }
    // deliverDue claims nothing once drained, and reports what it left.
    if (dryRun) summary.due = await listAllDue(db, deps.clock());
    else summary.delivery = await deliverDue(db, deps, runId);
    summary.held = await countHeldEvents(db);
    summary.stopped = deps.drain?.aborted ?? false;
    // Pruning is the leased run's job: deliver-only runs leave it alone.
    if (!dryRun && !options.deliverOnly && !summary.stopped && options.retentionDays !== undefined) {
      summary.pruned = await pruneEvents(db, deps.clock, options.retentionDays);
    }
    return summary;
  } finally {
    await lease?.release();
  }
}
