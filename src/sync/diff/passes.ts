import type { Change, ChangePosition } from '../../domain/changes.ts';
import { changedKeys, crewWithChanges, NO_LIMIT, pruneChanges, readChanges } from '../../store/repositories/changes-repo.ts';
import { countCrewOnVessels, crewAssignedToVessels, crewPageOnVessels } from '../../store/repositories/fleet-repo.ts';
import {
  countDueCrew,
  deleteSnapshotsInRange,
  dueSnapshotPage,
  saveSyncCursor,
  type DuePosition,
} from '../../store/repositories/sync-state-repo.ts';
import { diffPages, guardedWrite, type CrewPage, type PassEnd, type RunContext } from './crew-page.ts';
import type { PartnerPlan } from './plan.ts';

/** Tables whose writes concern whole fleets: a partner's (partner_id set) or every partner's (catalogue). */
export const FLEET_WIDE_TABLES = ['partners', 'webhook_endpoints', 'contract_vessels', 'requirement_catalogue'] as const;

/** How far the passes are: `planned` as a pass learns how many crew it will diff, `done` after each committed page. */
export interface Progress {
  planned(crew: number): void;
  done(crew: number): void;
}

/**
 * Every crew member of the partners' fleets, a page at a time in crew-id order, and forgets those
 * who left (no event: a return is a join again): each page's transaction deletes the partners'
 * snapshots of crew ids in its range that the page did not hold (those of the page who left a
 * fleet it deletes as departed), and the ids after the last page once all are written; so nothing
 * is held across pages. The reconcile path, and a partner's first run. Stopped, it has forgotten
 * only within the ranges of the pages it committed: the crew it did not reach were not seen.
 */
export async function fullPass(run: RunContext, plans: readonly PartnerPlan[], pageSize: number, progress: Progress): Promise<PassEnd> {
  const vesselIds = [...new Set(plans.flatMap((p) => [...p.vessels]))];
  const partnerIds = plans.map((p) => p.partner.partnerId);
  progress.planned(await countCrewOnVessels(run.db, vesselIds));
  let after: string | null = null;
  const end = await diffPages(
    run,
    plans,
    async () => {
      const crewIds = await crewPageOnVessels(run.db, vesselIds, after, pageSize);
      if (crewIds.length === 0) return null;
      const range = { after, upTo: crewIds[crewIds.length - 1]! };
      after = range.upTo;
      return { crewIds, also: (trx) => deleteSnapshotsInRange(trx, partnerIds, range, crewIds) };
    },
    (page) => progress.done(page.crewIds.length),
  );
  if (run.dryRun || end === 'stopped') return end;
  await guardedWrite(run, (db) => deleteSnapshotsInRange(db, partnerIds, { after, upTo: null }, []));
  return 'done';
}

/**
 * Crew with a pair whose next time-driven change date has come (a document expiring, entering the
 * window), read a page at a time in due-date order (dueSnapshotPage), so the run never holds the
 * whole burst. `docsAsBefore`: crew with no document change not read yet, whose document digests are
 * reused where the date did not change them. A crew member due for several partners is diffed
 * once, for all of them: writing its page moves every due date of it past today
 * (src/domain/compliance/next-change.ts), so a later page meets it again only while its page is not
 * yet written, and the pass holds the crew of those pages alone (a dry run, which writes nothing,
 * holds all). Crew `changed` names (those the change pass may read) are added to `diffed` as their
 * page is read, whatever their documents, and the change pass skips them: a document change the
 * pass may have missed is one the change pass reads, and it re-diffs its crew member even when done.
 */
export async function duePass(
  run: RunContext,
  plans: readonly PartnerPlan[],
  pageSize: number,
  docsAsBefore: (crewUniqueId: string) => boolean,
  crew: { changed: (crewUniqueId: string) => boolean; diffed: Set<string> },
  progress: Progress,
): Promise<PassEnd> {
  const partnerIds = plans.map((p) => p.partner.partnerId);
  progress.planned(await countDueCrew(run.db, partnerIds, run.today));
  let after: DuePosition | null = null;
  let more = true;
  // The crew of the pages read and not yet written.
  const unwritten = new Set<string>();
  return diffPages(
    run,
    plans,
    async () => {
      const crewIds: string[] = [];
      while (more && crewIds.length === 0) {
        // As they stand when the read starts: a page written while it runs is still read as due.
        const held = run.dryRun ? unwritten : new Set(unwritten);
        const rows = await dueSnapshotPage(run.db, partnerIds, run.today, after, pageSize);
        more = rows.length === pageSize;
        after = rows.at(-1) ?? after;
        for (const { crewUniqueId } of rows)
          if (!held.has(crewUniqueId) && !crew.diffed.has(crewUniqueId)) {
            held.add(crewUniqueId);
            unwritten.add(crewUniqueId);
            if (crew.changed(crewUniqueId)) crew.diffed.add(crewUniqueId);
            crewIds.push(crewUniqueId);
          }
      }
      return crewIds.length > 0 ? { crewIds: crewIds.sort(), docsAsBefore } : null;
    },
    (page) => {
      if (!run.dryRun) for (const id of page.crewIds) unwritten.delete(id);
      progress.done(page.crewIds.length);
    },
  );
}

/** Crew member → the partners whose view of them a change can alter ('all': every partner). */
type Targets = Map<string, Set<string> | 'all'>;

/**
 * Every crew member the changes after `from` can make the change pass read (targetsOf): those they
 * name, and those assigned to a vessel they name. Read before the due pass, whose crew are skipped by
 * the change pass only when this holds them (duePass).
 */
export async function crewChangesReach(run: RunContext, from: ChangePosition | null): Promise<Set<string>> {
  const out = await crewWithChanges(run.db, from, null);
  for (const crew of await crewAssignedToVessels(run.db, await changedKeys(run.db, from, 'vessels'))) out.add(crew);
  return out;
}

async function targetsOf(run: RunContext, changes: readonly Change[]): Promise<Targets> {
  const out: Targets = new Map();
  const all = (crew: string) => out.set(crew, 'all');
  const vessels: string[] = [];
  for (const change of changes) {
    if (change.table === 'vessels') vessels.push(change.key);
    else if (change.table === 'consents' && change.crewUniqueId && change.partnerId) {
      const partners = out.get(change.crewUniqueId);
      if (partners === undefined) out.set(change.crewUniqueId, new Set([change.partnerId]));
      else if (partners !== 'all') partners.add(change.partnerId);
    } else if (change.crewUniqueId) all(change.crewUniqueId);
    // Fleet-wide tables were turned into full passes before this one.
  }
  for (const crew of await crewAssignedToVessels(run.db, vessels)) all(crew);
  return out;
}

/**
 * Reads the changes after the cursor up to `until`, a chunk at a time, maps them to the pairs they
 * can affect and diffs those. The chunk's last page commits the cursor and prunes the rows read,
 * with its events and snapshots. Crew diffed earlier in this run are skipped: `until` (the last
 * final change, read before the run read any data) keeps out every change committed since, which
 * the next run reads. `position`: the last change read (`null`: none yet); stopped, the chunks
 * whose last page committed have saved their cursor and the rest is left for the next run.
 */
export async function changePass(
  run: RunContext,
  plans: readonly PartnerPlan[],
  from: ChangePosition | null,
  until: ChangePosition | null,
  options: { pageSize: number; chunk: number; docsAsBefore: (crewUniqueId: string) => boolean; done: Set<string>; progress: Progress },
): Promise<{ position: ChangePosition | null; end: PassEnd }> {
  if (until === null) return { position: from, end: 'done' };
  let position = from;
  const queued: CrewPage[] = [];
  // The (partner, crew member) pairs an earlier chunk of this pass diffed for one partner (consent
  // changes reach one): a later chunk naming them again has nothing new to see, since every change
  // up to `until` was committed before the first diff read them. A dry run, which writes nothing,
  // would otherwise plan their events once per chunk.
  const pairsDiffed = new Set<string>();
  const pair = (partnerId: string, id: string) => `${partnerId}\n${id}`;
  // The pages of one chunk of changes; the last one (or an empty one) moves the cursor past it.
  const nextChunk = async (): Promise<boolean> => {
    const start = position;
    const changes = await readChanges(run.db, start, NO_LIMIT, options.chunk, until);
    if (changes.length === 0) return false;
    const last = changes[changes.length - 1]!;
    const reached = { tx: last.tx, seq: last.seq };
    position = reached;
    const targets: Targets = plans.length > 0 ? await targetsOf(run, changes) : new Map<string, Set<string> | 'all'>();
    for (const [id, partners] of targets) {
      if (partners === 'all') continue;
      for (const p of partners) if (pairsDiffed.has(pair(p, id))) partners.delete(p);
      if (partners.size === 0) targets.delete(id);
    }
    const crew = [...targets.keys()].filter((id) => !options.done.has(id)).sort();
    // Marked before their pages commit: the next chunk is planned while this one's last page is written.
    for (const id of crew) {
      const partners = targets.get(id)!;
      if (partners === 'all') options.done.add(id);
      else for (const p of partners) pairsDiffed.add(pair(p, id));
    }
    options.progress.planned(crew.length);
    const only = (partnerId: string, id: string) => {
      const partners = targets.get(id)!;
      return partners === 'all' ? !pairsDiffed.has(pair(partnerId, id)) : partners.has(partnerId);
    };
    // A share of a split round leaves the store-wide cursor to the round's end (src/sync/diff/shares.ts).
    const advance = async (trx: RunContext['db']) => {
      if (run.share) return;
      await saveSyncCursor(trx, { position: reached, windowDays: run.windowDays, today: run.today });
      await pruneChanges(trx, reached, start);
    };
    const { docsAsBefore } = options;
    for (let i = 0; i < crew.length; i += options.pageSize)
      queued.push({ crewIds: crew.slice(i, i + options.pageSize), only, docsAsBefore });
    if (queued.length === 0) queued.push({ crewIds: [] });
    queued[queued.length - 1]!.also = advance;
    return true;
  };
  const end = await diffPages(
    run,
    plans,
    async () => (queued.length > 0 || (await nextChunk()) ? queued.shift()! : null),
    (page) => options.progress.done(page.crewIds.length),
  );
  return { position, end };
}

/** How the passes page their work, and where they report it. */
export interface PassOptions {
  pageSize: number;
  /** Captured changes read per chunk of the change pass. */
  changeChunk: number;
  progress: Progress;
}

/**
 * The passes of one run over some partners: the `full` ones re-diffed whole, the `incremental`
 * ones where the calendar (duePass) or the changes after `from` up to `until` (changePass) reach;
 * `changes` false skips the change pass (a run whose every partner is full moves past the changes
 * without reading them). Returns the last change read; stopped, where the committed pages left it.
 */
export async function diffPartners(
  run: RunContext,
  full: readonly PartnerPlan[],
  incremental: readonly PartnerPlan[],
  range: { from: ChangePosition | null; until: ChangePosition | null; changes: boolean },
  options: PassOptions,
): Promise<{ position: ChangePosition | null; end: PassEnd }> {
  const { from, until } = range;
  const stopped = { position: from, end: 'stopped' } as const;
  if (full.length > 0 && (await fullPass(run, full, options.pageSize, options.progress)) === 'stopped') return stopped;
  if (!range.changes) return { position: from, end: 'done' };
  // Crew diffed this run whom the change pass may read: it skips them.
  const diffed = new Set<string>();
  // Read after `until` was fixed: every document change up to it is in the set, and every crew member a change up to it reaches.
  const pendingDocs = incremental.length > 0 ? await crewWithChanges(run.db, from, ['documents']) : new Set<string>();
  const docsAsBefore = (id: string) => !pendingDocs.has(id);
  const reached = incremental.length > 0 && until !== null ? await crewChangesReach(run, from) : new Set<string>();
  const due = { changed: (id: string) => reached.has(id), diffed };
  if (incremental.length > 0 && (await duePass(run, incremental, options.pageSize, docsAsBefore, due, options.progress)) === 'stopped') {
    return stopped;
  }
  return changePass(run, incremental, from, until, {
    pageSize: options.pageSize,
    chunk: options.changeChunk,
    docsAsBefore,
    done: diffed,
    progress: options.progress,
  });
}
