import { v7 as uuidv7 } from 'uuid';
import { utcDate } from '../../domain/clock.ts';
import type { Db } from '../../store/database.ts';
import type { ChangePosition } from '../../domain/changes.ts';
import { fleetWideChanges, pruneChanges, settledReadBound } from '../../store/repositories/changes-repo.ts';
import { analyzeTables, vacuumChangeLog } from '../../store/repositories/maintenance-repo.ts';
import { findSyncCursor, recordSyncRun, saveSyncCursor, type SyncCursor } from '../../store/repositories/sync-state-repo.ts';
import type { PassEnd, RunContext } from './crew-page.ts';
import { diffPartners, FLEET_WIDE_TABLES, type PassOptions, type Progress } from './passes.ts';
import { planPartners, type DiffDeps, type PartnerDiffResult, type PartnerPlan } from './plan.ts';
import { leadRound, shareDeps } from './shares.ts';

export type { DiffDeps, PartnerDiffResult } from './plan.ts';

/** What a diff run did per partner, and whether it was stopped (`DiffDeps.signal`) before the end. */
export interface DiffRun {
  results: PartnerDiffResult[];
  end: PassEnd;
}

/**
 * `evt_` and a time-ordered UUID (version 7): unique like a random one, but the events of a run
 * go into the outbox's primary-key index side by side instead of on a random page each.
 */
export const newEventId = () => `evt_${uuidv7()}`;

/**
 * How long a run waits, at most, for a transaction older than the newest committed change to end
 * (Postgres). A write committed just before the run is then in it even while another writer's
 * transaction is still open; one open longer only delays what it holds back to the next run.
 */
export const SETTLE_MS = 2000;

/**
 * The diff stage of `svc sync`. For every partner with an active endpoint, compares what it may
 * see now (live data, its scopes, each crew member's consent) with what it was last sent, and
 * writes the events and the new snapshots a page at a time, one transaction per page.
 *
 * Incremental (docs/webhooks.md): only the pairs that captured changes or the calendar can have
 * altered are diffed. A full pass covers a partner's first run (a baseline: nothing sent), a
 * partner whose scopes, fleet or endpoint changed, and every partner on `full`, after a catalogue
 * change, with a new compliance window, a clock moved back, or a store that has no change cursor yet.
 *
 * Stopped (`deps.signal`), it ends at the next page boundary: what it committed stays, and the
 * cursor, the statistics and the partners' last runs are left as the last committed page left them.
 *
 * With `deps.shares` above 1 (and more than one partner) the partners are split into that many
 * shares, which this run and `svc sync --diff-worker` processes claim in the store
 * (src/sync/diff/shares.ts); the cursor moves once every share is done.
 */
export async function runDiff(db: Db, deps: DiffDeps, onPage?: (crewDone: number, crewKnown: number) => void): Promise<DiffRun> {
  const now = deps.clock();
  const dryRun = deps.dryRun ?? false;
  const pageSize = deps.pageSize ?? 500;
  // Both before any data, plans included: the run reads every change up to the last final one
  // and reflects each in what it reads next. A change committed later is left for the next run,
  // never skipped (on SQLite, which has no horizon, this bound keeps the change pass from reading
  // a write committed after the due pass had read, and skipped, its crew member).
  const { horizon, last } = await settledReadBound(db, deps.settleMs ?? SETTLE_MS);
  const { plans, vessels } = await planPartners(db, dryRun);
  const run: RunContext = {
    db,
    at: now.toISOString(),
    today: utcDate(now),
    windowDays: deps.windowDays,
    catalogue: (await deps.catalogue.get(db)).definitions,
    vessels,
    vesselIds: [...vessels.keys()],
    newId: deps.newEventId ?? newEventId,
    dryRun,
    signal: deps.signal,
    phases: deps.phases,
    spans: deps.spans,
  };
  const cursor = await findSyncCursor(db);
  const wide = cursor ? await fleetWideChanges(db, cursor.position, horizon, FLEET_WIDE_TABLES) : [];
  const everything =
    deps.full === true ||
    !cursor ||
    cursor.windowDays !== deps.windowDays ||
    run.today < cursor.today ||
    wide.some((change) => change.table === 'requirement_catalogue');
  const widened = new Set(wide.map((change) => change.partnerId));
  const full = plans.filter((p) => everything || p.baseline || widened.has(p.partner.partnerId));
  const incremental = plans.filter((p) => !full.includes(p));
  for (const p of full) p.result.full = true;

  let done = 0;
  let known = 0;
  const progress: Progress = {
    planned: (crew) => void (known += crew),
    done: (crew) => onPage?.((done += crew), known),
  };
  const results = plans.map((p) => p.result);
  const from = cursor?.position ?? null;
  const passes: PassOptions = { pageSize, changeChunk: deps.changeChunk ?? 2000, progress };
  if (!dryRun && (deps.shares ?? 1) > 1 && plans.length > 1) {
    const round = { runId: deps.runId ?? 'run', from, until: last, full: full.map((p) => p.partner.partnerId), shares: deps.shares! };
    const end = await leadRound(run, plans, round, { ...passes, ...shareDeps(deps) });
    if (end === 'stopped') return { results, end };
    await closeRun(run, plans, cursor, last ?? from, everything);
    return { results, end: 'done' };
  }
  const read = await diffPartners(run, full, incremental, { from, until: last, changes: !everything }, passes);
  if (read.end === 'stopped') return { results, end: 'stopped' };
  if (!dryRun) await closeRun(run, plans, cursor, everything ? (last ?? from) : read.position, everything);
  return { results, end: 'done' };
}

/**
 * The end of a run that diffed every partner: the cursor moves to `position` (the last change
 * consumed) with the date and window the snapshots' due dates assume, the changes read are
 * deleted, and each partner's run (its baseline, the first time) is recorded.
 */
async function closeRun(
  run: RunContext,
  plans: readonly PartnerPlan[],
  cursor: SyncCursor | undefined,
  position: ChangePosition | null,
  everything: boolean,
): Promise<void> {
  const { db } = run;
  const moved =
    !cursor ||
    cursor.today !== run.today ||
    cursor.windowDays !== run.windowDays ||
    cursor.position?.tx !== position?.tx ||
    cursor.position?.seq !== position?.seq;
  if (moved) {
    await db.transaction().execute(async (trx) => {
      await saveSyncCursor(trx, { position, windowDays: run.windowDays, today: run.today });
      if (position) await pruneChanges(trx, position, cursor?.position ?? null);
    });
  }
  // A full pass rewrote most snapshots' due dates and emptied the change log: fresh statistics
  // keep the next runs' due-date and change reads on their indexes, and a vacuumed change log
  // keeps the version read by every delivery cheap (vacuumChangeLog).
  if (everything) {
    await analyzeTables(db, ['sync_snapshots']);
    await vacuumChangeLog(db);
  }
  for (const plan of plans) await recordSyncRun(db, plan.partner.partnerId, run.at, plan.baseline);
}
