import type { RequirementDefinition } from '../../domain/catalogue.ts';
import { complianceChangedPayload, evaluateCompliance, TimeHorizon, type ComplianceEvaluation } from '../../domain/compliance/index.ts';
import type { CrewDocument } from '../../domain/document.ts';
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
 * Diffs one page of crew for every partner. Payloads that do not depend on the partner (document
 * wire shapes, evaluations per crew member and vessel) are computed once and shared.
 */
export function diffPage(
  plans: readonly PartnerPlan[], page: PageData, catalogue: readonly RequirementDefinition[], today: string, windowDays: number, only?: PairFilter,
): PageDiff {
  const out: PageDiff = { events: [], writes: [], vanished: [], departed: [] };
  const docsOf = group(page.documents, (d) => d.crewUniqueId);
  const assignmentsOf = group(page.assignments, (a) => a.crewUniqueId);
  const docDigests = new Map<string, Digested>();
  const evaluations = new Map<string, ComplianceEvaluation>();
  const complianceDigests = new Map<string, Digested>();
  const docDigest = (d: CrewDocument) => {
    let x = docDigests.get(d.documentId);
    if (!x) docDigests.set(d.documentId, (x = digested(documentEventData(d, today))));
    return x;
  };
  const compliance = (crew: string, a: Assignment, medical: boolean) => {
    const key = `${crew}|${a.vesselId}`;
    let e = evaluations.get(key);
    if (!e) {
      e = evaluateCompliance({
        role: a.role, positionName: a.positionName, vessel: page.vessels.get(a.vesselId)!, catalogue, documents: docsOf.get(crew) ?? [], today, windowDays,
      });
      evaluations.set(key, e);
    }
    const dkey = `${key}|${medical}`;
    let d = complianceDigests.get(dkey);
    if (!d) complianceDigests.set(dkey, (d = digested({ ...complianceChangedPayload(e, crew, medical) })));
    return d;
  };
  const horizons = new Map<string, string | null>();
  const horizonOf = (key: string, fill: (h: TimeHorizon) => void) => {
    if (!horizons.has(key)) {
      const h = new TimeHorizon(today, windowDays);
      fill(h);
      horizons.set(key, h.earliest);
    }
    return horizons.get(key)!;
  };

  for (const crew of page.crewIds) {
    const sig = page.signals.get(crew);
    const status = sig && digested({ crew_unique_id: crew, verification_status: sig.verificationStatus, background_check_status: sig.backgroundCheckStatus });
    const profile = sig && digested({ crew_unique_id: crew, updated_at: wireTime(sig.profileUpdatedAt) });
    for (const plan of plans) {
      const pid = plan.partner.partnerId;
      if (only && !only(pid, crew)) continue;
      const prev = page.snapshots.get(`${pid}|${crew}`);
      const on = sig ? (assignmentsOf.get(crew) ?? []).filter((a) => plan.vessels.has(a.vesselId)) : [];
      if (on.length === 0) {
        if (prev) out.departed.push({ partnerId: pid, crewUniqueId: crew });
        continue;
      }
      plan.seen.add(crew);
      plan.result.crew++;
      const consent = page.consents.get(pid)?.get(crew);
      const view: CrewView = { crewUniqueId: crew };
      const due = new TimeHorizon(today, windowDays);
      if (plan.can.status && consent?.has('status')) view.status = status;
      if (plan.can.profile && consent?.has('profile')) view.profile = profile;
      if (plan.can.docs && consent?.has('documents')) {
        const held = (docsOf.get(crew) ?? []).filter((d) => plan.can.medical || d.documentClass !== 'medical');
        view.documents = new Map(held.map((d) => [d.documentId, docDigest(d)]));
        const at = horizonOf(crew, (h) => (docsOf.get(crew) ?? []).forEach((d) => h.document(d)));
        if (at) due.at(at);
      }
      if (plan.can.compliance && consent?.has('compliance')) {
        view.compliance = new Map(on.map((a) => [a.vesselId, compliance(crew, a, plan.can.medical)]));
        for (const a of on) {
          const at = horizonOf(`${crew}|${a.vesselId}`, (h) => h.evaluation(evaluations.get(`${crew}|${a.vesselId}`)!));
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
