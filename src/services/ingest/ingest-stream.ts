import type { Kysely, Transaction } from 'kysely';
import { AppError, isAppError } from '../../domain/app-error.ts';
import type { ChangeResult, IngestOutcome } from '../../domain/ingest-change.ts';
import type { Database, Db } from '../../store/database.ts';
import { listHeld } from '../../store/repositories/ingest-repo.ts';
import { analyzeIngestTables, analyzeStore } from '../../store/repositories/maintenance-repo.ts';
import { isStoreConnectionError } from '../../store/store-errors.ts';
import { applyPrepared, type Incoming, type IngestDeps, type PreparedChange } from './apply-changes.ts';
import { prepareChange } from './read-incoming.ts';

/** Changes committed together, by default. */
export const DEFAULT_BATCH = 500;

/** Changes a run applies before it first refreshes the store's statistics. */
export const STATS_REFRESH_FIRST = 5_000;

/** How many times the changes applied at the last refresh a run applies before it refreshes again. */
export const STATS_REFRESH_GROWTH = 10;

/** How many changes of the input ended each way, and the rejected ones (with where they came from and why). */
export interface IngestSummary {
  changes: number;
  /** By how each change of the input ended this run (a change held and then applied counts as applied). */
  counts: Record<IngestOutcome, number>;
  /** Changes held by earlier runs that this run applied or rejected at last. */
  earlierHeld: { applied: number; rejected: number };
  /** Changes waiting in the store for an entity they refer to when the run ended (from any run). */
  waiting: number;
  rejected: ChangeResult[];
}

export interface StreamOptions {
  batchSize?: number;
  /** Check everything and write nothing: one transaction for the whole input, rolled back. */
  dryRun?: boolean;
  /** Each batch's results, as it commits. */
  onResults?: (results: readonly ChangeResult[]) => void;
}

async function* inBatches(source: AsyncIterable<Incoming>, size: number): AsyncGenerator<Incoming[]> {
  let batch: Incoming[] = [];
  for await (const item of source) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

export type Apply = (batch: readonly Incoming[]) => Promise<ChangeResult[]>;

/** Changes prepared between two turns of the event loop, so the store's answers to the batch being written are taken up meanwhile. */
const PREPARE_TURN = 25;

/** Prepares a batch (prepareChange) a few changes a turn of the event loop, beside the batch the store is writing. */
async function prepareInTurns(batch: readonly Incoming[]): Promise<PreparedChange[]> {
  const prepared: PreparedChange[] = [];
  for (let start = 0; start < batch.length; start += PREPARE_TURN) {
    if (start > 0) await new Promise((turn) => setImmediate(turn));
    for (const item of batch.slice(start, start + PREPARE_TURN)) prepared.push(prepareChange(item));
  }
  return prepared;
}

/**
 * An empty summary and how results are counted into it: `retried` results are of held changes tried
 * again, and a change held earlier in the same run that now settles counts as it ended.
 */
export function ingestTally(): { summary: IngestSummary; note: (results: readonly ChangeResult[], retried: boolean) => void } {
  const summary: IngestSummary = {
    changes: 0,
    counts: { applied: 0, stale: 0, held: 0, rejected: 0 },
    earlierHeld: { applied: 0, rejected: 0 },
    waiting: 0,
    rejected: [],
  };
  const heldNow = new Set<string>();
  const note = (results: readonly ChangeResult[], retried: boolean) => {
    for (const r of results) {
      if (r.outcome === 'rejected') summary.rejected.push(r);
      if (!retried) {
        summary.changes += 1;
        summary.counts[r.outcome] += 1;
        if (r.outcome === 'held') heldNow.add(r.origin);
      } else if (r.outcome !== 'held') {
        if (heldNow.delete(r.origin)) {
          summary.counts.held -= 1;
          summary.counts[r.outcome] += 1;
        } else if (r.outcome === 'applied' || r.outcome === 'rejected') summary.earlierHeld[r.outcome] += 1;
      }
    }
  };
  return { summary, note };
}

/**
 * Ingests a stream of changes (docs/ingest.md), committing every `batchSize` in one transaction:
 * a failure (store down, process killed) loses nothing committed and, sent again, applies nothing
 * twice (versions make a repeat stale). Once the input ends, changes held for an entity not known
 * then (in this run or an earlier one) are tried again until none moves; those past their deadline
 * are rejected. Memory stays flat: two batches are held at a time (the one written, the next read).
 */
export async function ingestStream(
  db: Kysely<Database>,
  source: AsyncIterable<Incoming>,
  deps: IngestDeps,
  options: StreamOptions = {},
): Promise<IngestSummary> {
  const { summary, note: tally } = ingestTally();
  const note = (results: readonly ChangeResult[], retried: boolean) => {
    tally(results, retried);
    options.onResults?.(results);
  };
  /*
   * A pipeline of one batch: while the store writes batch N, batch N+1 is read from the input and
   * prepared (parsed, checked, upserts' records made and validated); N+1 is written once N has
   * committed, so commits stay in input order, and a failure of N stops the run before N+1 is
   * written (a rerun finds N's changes not committed and N+1's not either).
   */
  const run = async (
    trx: Transaction<Database> | null,
    commit: (batch: readonly Incoming[], prepared: PreparedChange[]) => Promise<ChangeResult[]>,
  ) => {
    let writing: Promise<void> | undefined;
    try {
      for await (const batch of inBatches(source, options.batchSize ?? DEFAULT_BATCH)) {
        const prepared = await prepareInTurns(batch);
        await writing;
        writing = commit(batch, prepared).then((results) => note(results, false));
        // Awaited at the next batch or the end; a failure meanwhile must not count as unhandled.
        writing.catch(() => {});
      }
    } catch (err) {
      // The input failed: the batch being written ends (committed or not) before the run does.
      await writing?.catch(() => {});
      throw err;
    }
    await writing;
    summary.waiting = await retryHeld(
      trx ?? db,
      (batch) => commit(batch, batch.map(prepareChange)),
      (results) => note(results, true),
    );
  };
  try {
    if (options.dryRun) {
      const trx = await db.startTransaction().execute();
      try {
        await run(trx, (_batch, prepared) => applyPrepared(trx, prepared, deps));
      } finally {
        await trx.rollback().execute();
      }
    } else {
      const refresh = statisticsRefresh(db);
      await run(null, async (batch, prepared) => {
        const results = await db
          .transaction()
          .execute((trx) => applyPrepared(trx, prepared, deps))
          .catch((err: unknown) => {
            throw storeOutage(err, batch);
          });
        await refresh(results);
        return results;
      });
      if (summary.counts.applied > 0) await analyzeStore(db);
    }
  } catch (err) {
    throw storeOutage(err, []);
  }
  return summary;
}

/**
 * Refreshes the store's statistics as a run grows it, told each commit's results: after
 * STATS_REFRESH_FIRST changes applied, then each time the count has grown STATS_REFRESH_GROWTH
 * times (5,000, 50,000, 500,000…). Postgres plans a foreign-key check once per connection and
 * keeps the plan: made while the referenced table is nearly empty, it scans the whole table for
 * every row after; fresh statistics make it plan again, with the index (docs/ingest.md, "Speed").
 * Once a table holds thousands of rows its plans stay on the index as it grows: a refresh at each
 * doubling would cost an ANALYZE each time and buy nothing more. Only the tables a batch's plans
 * use (INGEST_TABLES in src/store/repositories/maintenance-repo.ts: Postgres keeps the batch's own
 * statements prepared per connection too), the large two by their lookup columns only; not the
 * change log the triggers append to nor the rest of the store. The run's end still analyzes
 * the whole store, for the readers after it (a sync reads the change log).
 */
export function statisticsRefresh(db: Db): (results: readonly ChangeResult[]) => Promise<void> {
  let refreshAt = STATS_REFRESH_FIRST;
  let applied = 0;
  return async (results) => {
    for (const r of results) if (r.outcome === 'applied') applied += 1;
    if (applied < refreshAt) return;
    await analyzeIngestTables(db);
    refreshAt = applied * STATS_REFRESH_GROWTH;
  };
}

/**
 * A run that failed because the store went away, as the operator reads it: store_unavailable
 * (exit 69) naming the batch not committed, if it was a batch; the batches before stay, and sent
 * again are stale.
 */
function storeOutage(err: unknown, batch: readonly Incoming[]): unknown {
  if (isAppError(err) || !isStoreConnectionError(err)) return err;
  const cause = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
  const lost =
    batch.length > 0
      ? ` while ingesting ${batch[0]!.origin} to ${batch[batch.length - 1]!.origin} (${cause}); nothing of those was committed, the changes before them were`
      : ` (${cause}); what the run committed stays`;
  return new AppError(
    'store_unavailable',
    `the store became unavailable${lost}: run the same input again, and what was committed is skipped as stale`,
    { cause: err },
  );
}

/** Tries held changes again, in the order they were first held, until a pass settles none; returns how many still wait. */
export async function retryHeld(db: Db, apply: Apply, note: (results: readonly ChangeResult[]) => void): Promise<number> {
  for (;;) {
    const held = await listHeld(db);
    if (held.length === 0) return 0;
    const results = await apply(
      held.map((h): Incoming => ({ origin: h.origin, text: h.change, held: { heldAt: h.heldAt, heldUntil: h.heldUntil } })),
    );
    note(results);
    const waiting = results.filter((r) => r.outcome === 'held').length;
    if (waiting === held.length) return waiting;
  }
}
