import type { RequirementDefinition } from '../../domain/catalogue.ts';
import type { EventCounts } from '../../domain/diff-round.ts';
import type { PlannedEvent } from '../../domain/events.ts';
import type { Vessel } from '../../domain/fleet.ts';
import type { Db } from '../../store/database.ts';
import { consentsForPartners } from '../../store/repositories/consents-repo.ts';
import { crewSignals } from '../../store/repositories/crew-signals-repo.ts';
import { documentsByIds, listListableDocuments } from '../../store/repositories/documents-repo.ts';
import { assignmentsOnVessels } from '../../store/repositories/fleet-repo.ts';
import { insertOutboxEvents } from '../../store/repositories/outbox-repo.ts';
import { deleteSnapshots, readSnapshots, writeSnapshots, type SnapshotWrite } from '../../store/repositories/sync-state-repo.ts';
import { numberedEvents } from './numbered-events.ts';
import { diffPage, type PageData, type PairFilter } from './page-diff.ts';
import { NO_SPANS, type Spans } from '../../services/plumbing/spans.ts';
import type { PhaseTimes } from '../phase-times.ts';
import type { PartnerPlan } from './plan.ts';

/** What every page of one diff run shares. */
export interface RunContext {
  db: Db;
  /** ISO instant of the run: occurred_at and created_at of its events. */
  at: string;
  /** YYYY-MM-DD the payloads are computed for. */
  today: string;
  windowDays: number;
  catalogue: readonly RequirementDefinition[];
  /** Live vessels of every planned partner's fleet. */
  vessels: ReadonlyMap<string, Vessel>;
  vesselIds: readonly string[];
  newId: () => string;
  dryRun: boolean;
  /** Aborted when the run is asked to stop: the passes end at the next page boundary. */
  signal?: AbortSignal;
  /** Counts the time each page spent diffing and waiting for its write, and the pages committed. */
  phases?: PhaseTimes;
  /** A span per page written, when tracing is on (docs/operations.md, "Traces"). */
  spans?: Spans;
  /**
   * Set when the run diffs one share of a split round (src/sync/diff/shares.ts): `hold` runs first
   * in every transaction the diff commits and throws once this process no longer holds the share,
   * so nothing more is written; given a page's events, it counts them into the share in the
   * transaction that writes them. The store-wide cursor is left to the round's end.
   */
  share?: { hold: (trx: Db, created?: EventCounts) => Promise<void> };
}

/** Runs a write of the diff outside a page, in a transaction holding the share when the run diffs one. */
export async function guardedWrite(run: RunContext, write: (db: Db) => Promise<void>): Promise<void> {
  const share = run.share;
  if (!share) return write(run.db);
  await run.db.transaction().execute(async (trx) => {
    await share.hold(trx);
    await write(trx);
  });
}

/** How a pass over pages ended: all read, or stopped at a page boundary (`RunContext.signal`). */
export type PassEnd = 'done' | 'stopped';

/** How many events of each type each partner has among `items`. */
function eventCounts(items: ReadonlyArray<{ partnerId: string; event: { type: string } }>): EventCounts {
  const counts: EventCounts = {};
  for (const { partnerId, event } of items) {
    const of = (counts[partnerId] ??= {});
    of[event.type] = (of[event.type] ?? 0) + 1;
  }
  return counts;
}

/** One diffed page, ready to commit: the events to write, the snapshots to write and to forget. */
export interface PageOutcome {
  outbox: Array<{ plan: PartnerPlan; event: PlannedEvent }>;
  writes: SnapshotWrite[];
  departed: Array<{ partnerId: string; crewUniqueId: string }>;
}

/** One page of crew to diff: which pairs (absent: all), and what to write with its events (the change reader's position). */
export interface CrewPage {
  crewIds: readonly string[];
  only?: PairFilter;
  also?: (trx: Db) => Promise<void>;
  docsAsBefore?: PageData['docsAsBefore'];
}

/** Everything one page needs from the store, for every planned partner at once. */
async function readCrewPage(run: RunContext, plans: readonly PartnerPlan[], { crewIds, docsAsBefore }: CrewPage): Promise<PageData> {
  const { db } = run;
  const partnerIds = plans.map((p) => p.partner.partnerId);
  const [assignments, signals, documents, consents, snapshots] = await Promise.all([
    assignmentsOnVessels(db, run.vesselIds, crewIds),
    crewSignals(db, crewIds),
    listListableDocuments(db, crewIds, true),
    consentsForPartners(db, partnerIds, crewIds),
    readSnapshots(db, partnerIds, crewIds),
  ]);
  // Documents sent before that are no longer listable: replaced (an update) or withdrawn (silent), as the diff decides.
  const listable = new Set(documents.map((doc) => doc.documentId));
  const left = new Set<string>();
  for (const { state } of snapshots.values()) for (const id of Object.keys(state.docs ?? {})) if (!listable.has(id)) left.add(id);
  const leftDocuments = new Map((await documentsByIds(db, [...left])).map((doc) => [doc.documentId, doc]));
  return { crewIds, assignments, signals, documents, leftDocuments, consents, snapshots, vessels: run.vessels, docsAsBefore };
}

/** Diffs a page already read against the partners' snapshots. Writes nothing (see commitPage). */
async function diffReadPage(run: RunContext, plans: readonly PartnerPlan[], data: PageData, only?: PairFilter): Promise<PageOutcome> {
  const diff = await diffPage(plans, data, run.catalogue, run.today, run.windowDays, only);
  const byId = new Map(plans.map((p) => [p.partner.partnerId, p]));
  const outbox: PageOutcome['outbox'] = [];
  for (const { partnerId, event } of diff.events) {
    const plan = byId.get(partnerId)!;
    if (!plan.baseline && plan.subscribed.has(event.type)) outbox.push({ plan, event });
  }
  return { outbox, writes: diff.writes, departed: diff.departed };
}

/**
 * Diffs and commits pages one after the other until `next` returns null, `committed` called after
 * each commit. Three pages are in hand at once: the next one is read and the one before is written
 * while the current one is diffed, so the store works while this process computes. A page is read
 * ahead only when it shares no crew member with the pages not yet committed (a crew member can come
 * back in a later chunk of changes); otherwise it is read once they are. Commits stay in page order
 * (the change reader's position moves with the last page of its chunk). A failure ends the loop:
 * the page diffed meanwhile is not written, a read ahead is abandoned. Once `run.signal` is aborted,
 * the page being written commits, the one diffed meanwhile is not written, and the loop returns `stopped`.
 */
export async function diffPages(
  run: RunContext,
  plans: readonly PartnerPlan[],
  next: () => Promise<CrewPage | null>,
  committed: (page: CrewPage) => void,
): Promise<PassEnd> {
  const read = (page: CrewPage | null) => {
    const pageRead = page && readCrewPage(run, plans, page);
    pageRead?.catch(() => {});
    return pageRead;
  };
  let writing: Promise<void> = Promise.resolve();
  let written: CrewPage | null = null;
  let current = await next();
  let reading = read(current);
  while (current) {
    const data = await reading!;
    const following = await next();
    const ids = new Set(following?.crewIds);
    const clash = [current, written].some((p) => p?.crewIds.some((id) => ids.has(id)));
    reading = clash ? null : read(following);
    const outcome = await timed(run.phases, 'diff', () => diffReadPage(run, plans, data, current!.only));
    await timed(run.phases, 'write', () => writing);
    if (run.signal?.aborted) return 'stopped';
    const page = current;
    writing = tracedCommit(run, outcome, page).then(() => {
      run.phases?.pageCommitted();
      committed(page);
    });
    writing.catch(() => {});
    written = page;
    if (clash) {
      await timed(run.phases, 'write', () => writing);
      reading = read(following);
    }
    current = following;
  }
  await timed(run.phases, 'write', () => writing);
  return 'done';
}

const timed = <T>(phases: PhaseTimes | undefined, phase: 'diff' | 'write', step: () => Promise<T>): Promise<T> =>
  phases ? phases.time(phase, step) : step();

/** Commits a page in a span of its own: how many crew members it diffed, and the events and snapshots it wrote. */
function tracedCommit(run: RunContext, outcome: PageOutcome, page: CrewPage): Promise<void> {
  const facts = {
    'svc.crew_count': page.crewIds.length,
    'svc.events_created': outcome.outbox.length,
    'svc.snapshots_written': outcome.writes.length,
    'svc.dry_run': run.dryRun,
  };
  return (run.spans ?? NO_SPANS).span('svc.sync.diff_page', facts, () => commitPage(run, outcome, page.also));
}

/**
 * Writes a page's events and snapshots, and whatever `also` adds (the change reader's position),
 * in one transaction: a crash loses nothing and a rerun invents nothing. A dry run writes nothing.
 * The events are counted into each plan's result once written (or, dry, once planned).
 */
async function commitPage(run: RunContext, page: PageOutcome, also?: (trx: Db) => Promise<void>): Promise<void> {
  const empty = page.outbox.length === 0 && page.writes.length === 0 && page.departed.length === 0;
  if (!run.dryRun && (!empty || also)) {
    await run.db.transaction().execute(async (trx) => {
      const items = page.outbox.map(({ plan, event }) => ({ partnerId: plan.partner.partnerId, event }));
      await run.share?.hold(trx, items.length > 0 ? eventCounts(items) : undefined);
      await insertOutboxEvents(trx, await numberedEvents(trx, items, run.at, run.newId));
      await writeSnapshots(trx, page.writes, run.at);
      const departed = new Map<string, string[]>();
      for (const d of page.departed) departed.set(d.partnerId, [...(departed.get(d.partnerId) ?? []), d.crewUniqueId]);
      for (const [partnerId, crew] of departed) await deleteSnapshots(trx, partnerId, crew);
      await also?.(trx);
    });
  }
  for (const { plan, event } of page.outbox) {
    plan.result.events[event.type] = (plan.result.events[event.type] ?? 0) + 1;
    plan.result.planned?.push(event);
  }
}
