import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { evaluateCompliance, type ComplianceEvaluation } from '../../domain/compliance/index.ts';
import { toDocumentWire, utcDate, type CrewDocument } from '../../domain/document.ts';
import { effectiveScopes } from '../../domain/scopes.ts';
import type { CatalogueCache } from '../../services/compliance/catalogue-cache.ts';
import { fleetOf } from '../../services/visibility/partner-context.ts';
import type { Db, OutboxEventsTable } from '../../store/database.ts';
import { consentsFor } from '../../store/repositories/consents-repo.ts';
import { crewSignals } from '../../store/repositories/crew-signals-repo.ts';
import { listListableDocuments, toCrewDocument } from '../../store/repositories/documents-repo.ts';
import { fleetAssignmentsOf, fleetCrewPage, listFleetVessels, type VesselRow } from '../../store/repositories/fleet-repo.ts';
import { insertOutboxEvents } from '../../store/repositories/outbox-repo.ts';
import type { Partner } from '../../store/repositories/partners-repo.ts';
import {
  deleteSnapshots, documentsByIds, findSyncState, readSnapshots, recordSyncRun, snapshotCrewPage, writeSnapshots,
  type CrewSnapshot,
} from '../../store/repositories/sync-state-repo.ts';
import { diffCrew, type CrewView, type PlannedEvent } from './crew-diff.ts';

/** What the diff needs besides the store. */
export interface DiffDeps {
  clock: Clock;
  catalogue: CatalogueCache;
  windowDays: number;
  /** Crew members per page (one read of each kind and one transaction per page). */
  pageSize?: number;
  newEventId?: () => string;
  /** Compute and report, write nothing. */
  dryRun?: boolean;
}

/** Per partner: whether this run recorded the baseline, how many crew it saw, events by type. */
export interface PartnerDiffResult {
  partnerId: string;
  baseline: boolean;
  crew: number;
  events: Record<string, number>;
  /** Only on a dry run: the events that would be written. */
  planned?: PlannedEvent[];
}

function evaluateAll(view: { role: string; position: string | null; vessel: VesselRow }[], docs: readonly CrewDocument[],
  catalogue: Parameters<typeof evaluateCompliance>[0]['catalogue'], today: string, windowDays: number): Map<string, ComplianceEvaluation> {
  const out = new Map<string, ComplianceEvaluation>();
  for (const a of view) {
    out.set(a.vessel.vessel_id, evaluateCompliance({
      role: a.role, positionName: a.position, catalogue, documents: docs, today, windowDays,
      vessel: {
        vesselId: a.vessel.vessel_id, vesselType: a.vessel.vessel_type, grossTonnage: a.vessel.gross_tonnage,
        propulsionKw: a.vessel.propulsion_kw, flagState: a.vessel.flag_state, tradingArea: a.vessel.trading_area,
      },
    }));
  }
  return out;
}

// Map.groupBy arrives in Node 21; the service supports Node 20.
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

function envelope(eventId: string, e: PlannedEvent, partnerId: string, at: string): Insertable<OutboxEventsTable> {
  const body = JSON.stringify({ schema_version: 1, event_id: eventId, event_type: e.type, occurred_at: at, partner_id: partnerId, data: e.data });
  return {
    event_id: eventId, partner_id: partnerId, event_type: e.type, crew_unique_id: e.crewUniqueId, occurred_at: at, body,
    status: 'pending', attempts: 0, next_attempt_at: at, locked_by: null, locked_until: null, created_at: at, delivered_at: null,
  };
}

/**
 * Diffs what one partner may see now (live data, its scopes, each crew member's consent) against
 * what it was last sent, a page of crew at a time; each page's events and snapshots are written in
 * one transaction. The partner's first run records a baseline and sends nothing.
 */
export async function diffPartner(db: Db, deps: DiffDeps, partner: Partner, subscribed: ReadonlySet<string>): Promise<PartnerDiffResult> {
  const now = deps.clock();
  const at = now.toISOString();
  const today = utcDate(now);
  const scopes = new Set<string>(effectiveScopes(partner));
  const fleet = fleetOf(partner, 'live');
  const baseline = !(await findSyncState(db, partner.partnerId));
  const vessels = new Map((await listFleetVessels(db, fleet)).map((v) => [v.vessel_id, v]));
  const catalogue = await deps.catalogue.get(db);
  const can = {
    docs: scopes.has('crew:documents:read'), medical: scopes.has('crew:medical:read'), compliance: scopes.has('crew:compliance:read'),
    status: scopes.has('crew:status:subscribe'), profile: scopes.has('crew:profile:read'),
  };
  const result: PartnerDiffResult = { partnerId: partner.partnerId, baseline, crew: 0, events: {}, ...(deps.dryRun ? { planned: [] } : {}) };
  const seen = new Set<string>();
  const newId = deps.newEventId ?? (() => `evt_${randomUUID()}`);

  for (let after: string | null = null; ;) {
    const ids = await fleetCrewPage(db, fleet, after, deps.pageSize ?? 500);
    if (ids.length === 0) break;
    after = ids[ids.length - 1]!;
    ids.forEach((id) => seen.add(id));
    const [assignments, consents, signals, snapshots, docs] = await Promise.all([
      fleetAssignmentsOf(db, fleet, ids), consentsFor(db, partner.partnerId, ids), crewSignals(db, ids),
      readSnapshots(db, partner.partnerId, ids),
      can.docs || can.compliance ? listListableDocuments(db, ids, true) : Promise.resolve([]),
    ]);
    const docsOf = groupBy(docs, (d) => d.crewUniqueId);
    const assignmentsOf = groupBy(assignments, (a) => a.crew_unique_id);
    const planned: PlannedEvent[] = [];
    const changed = new Map<string, CrewSnapshot>();
    const vanished: string[] = [];
    for (const id of ids) {
      const consent = consents.get(id) ?? new Set();
      const sig = signals.get(id)!;
      const held = docsOf.get(id) ?? [];
      const view: CrewView = { crewUniqueId: id, medicalVisible: can.medical };
      if (can.status && consent.has('status')) view.status = { verification_status: sig.verificationStatus, background_check_status: sig.backgroundCheckStatus };
      if (can.profile && consent.has('profile')) view.profileUpdatedAt = sig.profileUpdatedAt;
      if (can.docs && consent.has('documents')) view.documents = can.medical ? held : held.filter((d) => d.documentClass !== 'medical');
      if (can.compliance && consent.has('compliance')) {
        const on = (assignmentsOf.get(id) ?? []).flatMap((a) => {
          const vessel = vessels.get(a.vessel_id);
          return vessel ? [{ role: a.role, position: a.position_name, vessel }] : [];
        });
        view.compliance = evaluateAll(on, held, catalogue, today, deps.windowDays);
      }
      const prev = snapshots.get(id);
      const { next, events, vanishedDocs } = diffCrew(view, prev, today);
      planned.push(...events);
      vanished.push(...vanishedDocs);
      if (JSON.stringify(next) !== JSON.stringify(prev)) changed.set(id, next);
    }
    // A shared document that left the list because a newer edition replaced it is an update;
    // one withdrawn, rejected or sent back for processing leaves silently.
    for (const row of await documentsByIds(db, vanished)) {
      const doc = toCrewDocument(row);
      if (doc.processingState === 'processed' && doc.isLive && !doc.isCurrent && doc.supersededBy) {
        planned.push({ type: 'crew.document.updated', crewUniqueId: doc.crewUniqueId, data: { crew_unique_id: doc.crewUniqueId, ...toDocumentWire(doc, today) } });
      }
    }
    const toSend = baseline ? [] : planned.filter((e) => subscribed.has(e.type));
    result.crew += ids.length;
    for (const e of toSend) result.events[e.type] = (result.events[e.type] ?? 0) + 1;
    if (deps.dryRun) {
      result.planned!.push(...toSend);
      continue;
    }
    if (toSend.length > 0 || changed.size > 0) {
      await db.transaction().execute(async (trx) => {
        await insertOutboxEvents(trx, toSend.map((e) => envelope(newId(), e, partner.partnerId, at)));
        await writeSnapshots(trx, partner.partnerId, changed, at);
      });
    }
  }
  if (!deps.dryRun) {
    await sweepDeparted(db, partner.partnerId, seen);
    await recordSyncRun(db, partner.partnerId, at, baseline);
  }
  return result;
}

/** Crew who left the fleet: forget what was sent, so a return is a join again. No event. */
async function sweepDeparted(db: Db, partnerId: string, seen: ReadonlySet<string>): Promise<void> {
  for (let after: string | null = null; ;) {
    const page = await snapshotCrewPage(db, partnerId, after, 5000);
    if (page.length === 0) return;
    after = page[page.length - 1]!;
    const gone = page.filter((id) => !seen.has(id));
    if (gone.length > 0) await deleteSnapshots(db, partnerId, gone);
  }
}
