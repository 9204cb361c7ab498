import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RequirementDefinition } from '../../domain/catalogue.ts';
import { complianceChangedPayload, evaluateCompliance, TimeHorizon, type ComplianceEvaluation } from '../../domain/compliance/index.ts';
import { isExpired, type CrewDocument } from '../../domain/document.ts';
import { documentEventData } from '../../domain/events.ts';
import type { PlannedEvent } from '../../domain/events.ts';
import type { Assignment, Vessel } from '../../domain/fleet.ts';
import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { CrewSignals } from '../../store/repositories/crew-signals-repo.ts';
import type { SnapshotWrite, StoredSnapshot } from '../../store/repositories/sync-state-repo.ts';
import { diffCrew, digested, sameSnapshot, type CrewView, type Digested } from './crew-diff.ts';
import type { PartnerPlan } from './plan.ts';
import { wireTime } from '../../domain/clock.ts';

/** Everything read for one page of crew, for every partner at once. */
export interface PageData {
  crewIds: readonly string[];
  assignments: readonly Assignment[];
  signals: ReadonlyMap<string, CrewSignals>;
  documents: readonly CrewDocument[];
  /** partner → crew → categories. */
  consents: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<ConsentCategory>>>;
  /** Key `partner|crew`. */
  snapshots: ReadonlyMap<string, StoredSnapshot>;
  vessels: ReadonlyMap<string, Vessel>;
  /**
   * Incremental passes: whether a crew member's documents are as the runs before read them (no
   * captured document change since). A snapshot's digests of such documents are reused while their
   * expiry has not flipped since it was written. Absent (full passes): every digest is computed.
   */
  docsAsBefore?: (crewUniqueId: string) => boolean;
}

/** Which (partner, crew member) pairs of the page to diff; absent: all of them. */
export type PairFilter = (partnerId: string, crewUniqueId: string) => boolean;

export interface PageDiff {
  events: Array<{ partnerId: string; event: PlannedEvent }>;
  writes: SnapshotWrite[];
  /** Documents a partner was sent that are no longer listable. */
  vanished: Array<{ partnerId: string; documentId: string }>;
  /** Pairs with a snapshot whose crew member is no longer on the partner's fleet (or no longer exists). */
  departed: Array<{ partnerId: string; crewUniqueId: string }>;
}

function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(key(item));
    if (list) list.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}

/**
 * The digest a snapshot holds for a document whose row is as it was when the snapshot was written,
 * while the payload is still the same: of a document's payload only is_expired and status move
 * with the date. Undefined when the digest must be computed.
 */
function sentDigest(d: CrewDocument, prev: StoredSnapshot, today: string): Digested | undefined {
  const digest = prev.state.docs?.[d.documentId];
  if (digest === undefined || isExpired(d, prev.updatedAt.slice(0, 10)) !== isExpired(d, today)) return undefined;
  return { digest, get data() { return documentEventData(d, today); } };
}

/** Plans by vessel of their fleets, built once per set of plans. */
const plansByVessel = new WeakMap<readonly PartnerPlan[], Map<string, PartnerPlan[]>>();
function plansOn(plans: readonly PartnerPlan[]): Map<string, PartnerPlan[]> {
  let byVessel = plansByVessel.get(plans);
  if (!byVessel) {
    byVessel = new Map();
    for (const plan of plans) for (const v of plan.vessels) byVessel.set(v, [...(byVessel.get(v) ?? []), plan]);
    plansByVessel.set(plans, byVessel);
  }
  return byVessel;
}

/** A value computed on first use. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) (value = make()), (made = true);
    return value as T;
  };
}

/** Crew diffed between two turns of the event loop (see diffPage). */
const CREW_PER_TURN = 20;

/**
 * Diffs one page of crew for every partner. Payloads that do not depend on the partner (document
 * wire shapes, evaluations per crew member and vessel) are computed once per crew member, when a
 * partner first needs them, and shared. Only the partners whose fleet the crew member is on, or
 * that hold a snapshot of them, are looked at. The event loop gets a turn every few crew members,
 * so the page written meanwhile sends its next statement without waiting for this one's end.
 */
export async function diffPage(
  plans: readonly PartnerPlan[], page: PageData, catalogue: readonly RequirementDefinition[], today: string, windowDays: number, only?: PairFilter,
): Promise<PageDiff> {
  const out: PageDiff = { events: [], writes: [], vanished: [], departed: [] };
  const docsOf = group(page.documents, (d) => d.crewUniqueId);
  const assignmentsOf = group(page.assignments, (a) => a.crewUniqueId);
  const byVessel = plansOn(plans);
  const order = new Map(plans.map((p, i) => [p, i]));

  let sinceTurn = 0;
  for (const crew of page.crewIds) {
    if (++sinceTurn === CREW_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
    const sig = page.signals.get(crew);
    const docs = docsOf.get(crew) ?? [];
    const asBefore = page.docsAsBefore?.(crew) ?? false;
    const assigned = sig ? (assignmentsOf.get(crew) ?? []) : [];
    const status = lazy(() => sig && digested({ crew_unique_id: crew, verification_status: sig.verificationStatus, background_check_status: sig.backgroundCheckStatus }));
    const profile = lazy(() => sig && digested({ crew_unique_id: crew, updated_at: wireTime(sig.profileUpdatedAt) }));
    const docDigests = new Map<string, Digested>();
    const docDigest = (d: CrewDocument) => {
      let x = docDigests.get(d.documentId);
      if (!x) docDigests.set(d.documentId, (x = digested(documentEventData(d, today))));
      return x;
    };
    const docsDue = lazy(() => {
      const h = new TimeHorizon(today, windowDays);
      for (const d of docs) h.document(d);
      return h.earliest;
    });
    // By vessel id: the evaluation, when time alone changes it, and its payload digests without / with medical details.
    const evaluated = new Map<string, { e: ComplianceEvaluation; due: string | null; digests: Array<Digested | undefined> }>();
    const compliance = (a: Assignment) => {
      let x = evaluated.get(a.vesselId);
      if (!x) {
        const e = evaluateCompliance({ role: a.role, positionName: a.positionName, vessel: page.vessels.get(a.vesselId)!, catalogue, documents: docs, today, windowDays });
        const h = new TimeHorizon(today, windowDays);
        h.evaluation(e);
        evaluated.set(a.vesselId, (x = { e, due: h.earliest, digests: [] }));
      }
      return x;
    };
    const complianceDigest = (a: Assignment, medical: boolean) => {
      const x = compliance(a);
      const i = medical ? 1 : 0;
      return (x.digests[i] ??= digested({ ...complianceChangedPayload(x.e, crew, medical) }));
    };

    // The partners concerned, in plan order: those whose fleet holds an assignment, and those with a snapshot.
    const concerned = new Set<PartnerPlan>();
    for (const a of assigned) for (const plan of byVessel.get(a.vesselId) ?? []) concerned.add(plan);
    for (const plan of plans) if (!concerned.has(plan) && page.snapshots.has(`${plan.partner.partnerId}|${crew}`)) concerned.add(plan);
    const ordered = [...concerned].sort((x, y) => order.get(x)! - order.get(y)!);

    for (const plan of ordered) {
      const pid = plan.partner.partnerId;
      if (only && !only(pid, crew)) continue;
      const prev = page.snapshots.get(`${pid}|${crew}`);
      const on = assigned.filter((a) => plan.vessels.has(a.vesselId));
      if (on.length === 0) {
        if (prev) out.departed.push({ partnerId: pid, crewUniqueId: crew });
        continue;
      }
      plan.seen.add(crew);
      plan.result.crew++;
      const consent = page.consents.get(pid)?.get(crew);
      const view: CrewView = { crewUniqueId: crew };
      const due = new TimeHorizon(today, windowDays);
      if (plan.can.status && consent?.has('status')) view.status = status();
      if (plan.can.profile && consent?.has('profile')) view.profile = profile();
      if (plan.can.docs && consent?.has('documents')) {
        const held = docs.filter((d) => plan.can.medical || d.documentClass !== 'medical');
        view.documents = new Map(held.map((d) => [d.documentId, (asBefore && prev && sentDigest(d, prev, today)) || docDigest(d)]));
        const at = docsDue();
        if (at) due.at(at);
      }
      if (plan.can.compliance && consent?.has('compliance')) {
        view.compliance = new Map(on.map((a) => [a.vesselId, complianceDigest(a, plan.can.medical)]));
        for (const a of on) {
          const at = compliance(a).due;
          if (at) due.at(at);
        }
      }
      const { next, events, vanishedDocs } = diffCrew(view, prev?.state);
      for (const event of events) out.events.push({ partnerId: pid, event });
      for (const documentId of vanishedDocs) out.vanished.push({ partnerId: pid, documentId });
      const nextDue = due.earliest;
      if (!sameSnapshot(prev?.state, next) || prev?.nextDue !== nextDue) out.writes.push({ partnerId: pid, crewUniqueId: crew, state: next, nextDue });
    }
  }
  return out;
}
