import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RequirementDefinition } from '../../domain/catalogue.ts';
import { evaluateCompliance, TimeHorizon, type ComplianceEvaluation } from '../../domain/compliance/index.ts';
import { isExpired, type CrewDocument } from '../../domain/document.ts';
import type { CrewSignals } from '../../domain/crew.ts';
import { SNAPSHOT_SUBJECTS, subjectAccess, type SnapshotSubject } from '../../domain/event-catalogue.ts';
import type { PlannedEvent } from '../../domain/events.ts';
import type { Assignment, Vessel } from '../../domain/fleet.ts';
import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { SnapshotWrite, StoredSnapshot } from '../../store/repositories/sync-state-repo.ts';
import { diffCrew, digested, sameSnapshot, type CrewView, type Digested } from './crew-diff.ts';
import { noticeView } from './notice-view.ts';
import type { PartnerPlan } from './plan.ts';

/** Everything read for one page of crew, for every partner at once. */
export interface PageData {
  crewIds: readonly string[];
  assignments: readonly Assignment[];
  signals: ReadonlyMap<string, CrewSignals>;
  documents: readonly CrewDocument[];
  /**
   * Documents a snapshot of the page holds that are no longer listable, by id, as they are now: the
   * docs subject's `replaced` rule tells a replaced one (its final state is sent) from a withdrawn one.
   */
  leftDocuments: ReadonlyMap<string, CrewDocument>;
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
function sentDigest(doc: CrewDocument, prev: StoredSnapshot, today: string): Digested | undefined {
  const digest = prev.state.docs?.[doc.documentId];
  if (digest === undefined || isExpired(doc, prev.updatedAt.slice(0, 10)) !== isExpired(doc, today)) return undefined;
  return {
    digest,
    get data() {
      return SNAPSHOT_SUBJECTS.docs.build(doc, today);
    },
  };
}

/**
 * A compliance payload with its digest, and the scope of the subject's restriction when it holds
 * a medical expiry (docs/webhooks.md, "Medical data in payloads"); the digest is of the payload alone.
 */
function compliancePayload(evaluation: ComplianceEvaluation, crew: string, medical: boolean): Digested {
  const { build, restriction } = SNAPSHOT_SUBJECTS.compliance;
  const payload = digested({ ...build(evaluation, crew, medical) });
  return restriction.builtWith(evaluation, medical) ? { ...payload, scope: restriction.scope } : payload;
}

/** Plans by vessel of their fleets. */
function plansOn(plans: readonly PartnerPlan[]): Map<string, PartnerPlan[]> {
  const byVessel = new Map<string, PartnerPlan[]>();
  for (const plan of plans) {
    for (const vesselId of plan.vessels) {
      const on = byVessel.get(vesselId);
      if (on) on.push(plan);
      else byVessel.set(vesselId, [plan]);
    }
  }
  return byVessel;
}

/** A value computed on first use. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
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
  plans: readonly PartnerPlan[],
  page: PageData,
  catalogue: readonly RequirementDefinition[],
  today: string,
  windowDays: number,
  only?: PairFilter,
): Promise<PageDiff> {
  const out: PageDiff = { events: [], writes: [], departed: [] };
  const docsOf = group(page.documents, (doc) => doc.crewUniqueId);
  const assignmentsOf = group(page.assignments, (assignment) => assignment.crewUniqueId);
  const byVessel = plansOn(plans);
  const order = new Map(plans.map((plan, index) => [plan, index]));

  let sinceTurn = 0;
  for (const crew of page.crewIds) {
    if (++sinceTurn === CREW_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
    const signals = page.signals.get(crew);
    const docs = docsOf.get(crew) ?? [];
    const asBefore = page.docsAsBefore?.(crew) ?? false;
    const assigned = signals ? (assignmentsOf.get(crew) ?? []) : [];
    const status = lazy(() => signals && digested(SNAPSHOT_SUBJECTS.status.build(signals)));
    const profile = lazy(() => signals && digested(SNAPSHOT_SUBJECTS.profile.build(signals)));
    const docDigests = new Map<string, Digested>();
    const docDigest = (doc: CrewDocument) => {
      let payload = docDigests.get(doc.documentId);
      if (!payload) docDigests.set(doc.documentId, (payload = digested(SNAPSHOT_SUBJECTS.docs.build(doc, today))));
      return payload;
    };
    const docsDue = lazy(() => {
      const horizon = new TimeHorizon(today, windowDays);
      for (const doc of docs) horizon.document(doc);
      return horizon.earliest;
    });
    // By vessel id: the evaluation, when time alone changes it, and its payload digests without / with medical details.
    const evaluated = new Map<string, { evaluation: ComplianceEvaluation; due: string | null; digests: Array<Digested | undefined> }>();
    const compliance = (assignment: Assignment) => {
      let onVessel = evaluated.get(assignment.vesselId);
      if (!onVessel) {
        const evaluation = evaluateCompliance({
          role: assignment.role,
          positionName: assignment.positionName,
          vessel: page.vessels.get(assignment.vesselId)!,
          catalogue,
          documents: docs,
          today,
          windowDays,
        });
        const horizon = new TimeHorizon(today, windowDays);
        horizon.evaluation(evaluation);
        evaluated.set(assignment.vesselId, (onVessel = { evaluation, due: horizon.earliest, digests: [] }));
      }
      return onVessel;
    };
    const complianceDigest = (assignment: Assignment, medical: boolean) => {
      const onVessel = compliance(assignment);
      return (onVessel.digests[medical ? 1 : 0] ??= compliancePayload(onVessel.evaluation, crew, medical));
    };

    // The partners concerned, in plan order: those whose fleet holds an assignment, and those with a snapshot.
    const concerned = new Set<PartnerPlan>();
    for (const assignment of assigned) for (const plan of byVessel.get(assignment.vesselId) ?? []) concerned.add(plan);
    for (const plan of plans) if (!concerned.has(plan) && page.snapshots.has(`${plan.partner.partnerId}|${crew}`)) concerned.add(plan);
    const ordered = [...concerned].sort((a, b) => order.get(a)! - order.get(b)!);

    for (const plan of ordered) {
      const partnerId = plan.partner.partnerId;
      if (only && !only(partnerId, crew)) continue;
      const prev = page.snapshots.get(`${partnerId}|${crew}`);
      const onFleet = assigned.filter((assignment) => plan.vessels.has(assignment.vesselId));
      if (onFleet.length === 0) {
        if (prev) out.departed.push({ partnerId, crewUniqueId: crew });
        continue;
      }
      plan.result.crew++;
      const consent = page.consents.get(partnerId)?.get(crew);
      const view: CrewView = { crewUniqueId: crew };
      const due = new TimeHorizon(today, windowDays);
      // What each subject of the event catalogue shows this partner; the diff compares them all alike.
      const subjectViews = {
        status: () => void (view.status = status()),
        profile: () => void (view.profile = profile()),
        docs: () => {
          // A document not sent yet waits while its verification is pending; one sent stays (docs/decisions.md, "Sync").
          const sent = prev?.state.docs;
          const held = docs.filter(
            (doc) =>
              (plan.medical || doc.documentClass !== 'medical') &&
              (sent?.[doc.documentId] !== undefined || SNAPSHOT_SUBJECTS.docs.ready(doc)),
          );
          const shown = (view.docs = new Map(
            held.map((doc) => [doc.documentId, (asBefore && prev && sentDigest(doc, prev, today)) || docDigest(doc)]),
          ));
          // Of the documents sent that left the list, those a newer edition replaced (most pages have none that left).
          const replaced =
            page.leftDocuments.size === 0
              ? []
              : Object.keys(prev?.state.docs ?? {})
                  .map((id) => !shown.has(id) && page.leftDocuments.get(id))
                  .filter((doc): doc is CrewDocument => !!doc && SNAPSHOT_SUBJECTS.docs.replaced(doc));
          if (replaced.length) view.replaced = { docs: new Map(replaced.map((doc) => [doc.documentId, docDigest(doc)])) };
          const at = docsDue();
          if (at) due.at(at);
        },
        compliance: () => {
          view.compliance = new Map(onFleet.map((assignment) => [assignment.vesselId, complianceDigest(assignment, plan.medical)]));
          for (const assignment of onFleet) {
            const at = compliance(assignment).due;
            if (at) due.at(at);
          }
        },
        notices: () => {
          // Not subscribed (no lead times): nothing is worked out; the notices sent stay until their date.
          const evaluations = plan.noticeLeadDays.length === 0 ? [] : onFleet.map((assignment) => compliance(assignment).evaluation);
          const options = { today, windowDays, medicalVisible: plan.medical, leads: plan.noticeLeadDays };
          const { view: shown, crossings } = noticeView(evaluations, crew, prev?.state.notices, options);
          view.notices = shown;
          for (const at of crossings) due.at(at);
        },
      } satisfies Record<SnapshotSubject, () => void>;
      for (const subject of plan.subjects) if (consent?.has(subjectAccess(subject).consent)) subjectViews[subject]();
      const { next, events } = diffCrew(view, prev?.state);
      for (const event of events) out.events.push({ partnerId, event });
      const nextDue = due.earliest;
      if (!sameSnapshot(prev?.state, next) || prev?.nextDue !== nextDue)
        out.writes.push({ partnerId, crewUniqueId: crew, state: next, nextDue });
    }
  }
  return out;
}
