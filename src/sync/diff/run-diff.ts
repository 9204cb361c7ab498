import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { toDocumentWire, utcDate } from '../../domain/document.ts';
import { SCHEMA_VERSION } from '../../domain/vocabulary.ts';
import type { Db, OutboxEventsTable } from '../../store/database.ts';
import { consentsForPartners } from '../../store/repositories/consents-repo.ts';
import { crewSignals } from '../../store/repositories/crew-signals-repo.ts';
import { listListableDocuments, toCrewDocument } from '../../store/repositories/documents-repo.ts';
import { assignmentsOnVessels, crewPageOnVessels } from '../../store/repositories/fleet-repo.ts';
import { insertOutboxEvents } from '../../store/repositories/outbox-repo.ts';
import { deleteSnapshots, documentsByIds, readSnapshots, recordSyncRun, snapshotCrewPage, writeSnapshots } from '../../store/repositories/sync-state-repo.ts';
import type { PlannedEvent } from './crew-diff.ts';
import { diffPage } from './page-diff.ts';
import { planPartners, type DiffDeps, type PartnerDiffResult, type PartnerPlan } from './plan.ts';

export type { DiffDeps, PartnerDiffResult } from './plan.ts';

function envelope(eventId: string, e: PlannedEvent, partnerId: string, at: string): Insertable<OutboxEventsTable> {
  const body = JSON.stringify({ schema_version: SCHEMA_VERSION, event_id: eventId, event_type: e.type, occurred_at: at, partner_id: partnerId, data: e.data });
  return {
    event_id: eventId, partner_id: partnerId, event_type: e.type, crew_unique_id: e.crewUniqueId, occurred_at: at, body,
    status: 'pending', attempts: 0, next_attempt_at: at, locked_by: null, locked_until: null, created_at: at, delivered_at: null,
  };
}

/**
 * The diff stage of `svc sync`. For every partner with an active endpoint, compares what it may
 * see now (live data, its scopes, each crew member's consent) with what it was last sent. Crew are
 * read a page at a time for all partners at once; each page's events and snapshots are written in
 * one transaction, so a crash loses nothing and a rerun invents nothing. A partner's first run
 * records a baseline and sends nothing (no backlog).
 */
export async function runDiff(db: Db, deps: DiffDeps, onPage?: (crewDone: number) => void): Promise<PartnerDiffResult[]> {
  const now = deps.clock();
  const at = now.toISOString();
  const today = utcDate(now);
  const newId = deps.newEventId ?? (() => `evt_${randomUUID()}`);
  const { plans, vessels } = await planPartners(db, deps.dryRun ?? false);
  const vesselIds = [...vessels.keys()];
  const partnerIds = plans.map((p) => p.partner.partnerId);
  const byId = new Map(plans.map((p) => [p.partner.partnerId, p]));
  const catalogue = await deps.catalogue.get(db);
  let done = 0;

  for (let after: string | null = null; plans.length > 0;) {
    const crewIds = await crewPageOnVessels(db, vesselIds, after, deps.pageSize ?? 500);
    if (crewIds.length === 0) break;
    after = crewIds[crewIds.length - 1]!;
    const [assignments, signals, documents, consents, snapshots] = await Promise.all([
      assignmentsOnVessels(db, vesselIds, crewIds), crewSignals(db, crewIds), listListableDocuments(db, crewIds, true),
      consentsForPartners(db, partnerIds, crewIds), readSnapshots(db, partnerIds, crewIds),
    ]);
    const diff = diffPage(plans, { crewIds, assignments, signals, documents, consents, snapshots, vessels }, catalogue, today, deps.windowDays);
    // A shared document that left the list because a newer edition replaced it is an update;
    // one withdrawn, rejected or sent back for processing leaves silently.
    const rows = new Map((await documentsByIds(db, [...new Set(diff.vanished.map((v) => v.documentId))])).map((r) => [r.document_id, toCrewDocument(r)]));
    for (const { partnerId, documentId } of diff.vanished) {
      const doc = rows.get(documentId);
      if (doc && doc.processingState === 'processed' && doc.isLive && !doc.isCurrent && doc.supersededBy) {
        diff.events.push({ partnerId, event: { type: 'crew.document.updated', crewUniqueId: doc.crewUniqueId, data: { crew_unique_id: doc.crewUniqueId, ...toDocumentWire(doc, today) } } });
      }
    }
    const outbox = diff.events.filter(({ partnerId, event }) => {
      const plan = byId.get(partnerId)!;
      if (plan.baseline || !plan.subscribed.has(event.type)) return false;
      plan.result.events[event.type] = (plan.result.events[event.type] ?? 0) + 1;
      plan.result.planned?.push(event);
      return true;
    });
    if (!deps.dryRun && (outbox.length > 0 || diff.writes.length > 0)) {
      await db.transaction().execute(async (trx) => {
        await insertOutboxEvents(trx, outbox.map(({ partnerId, event }) => envelope(newId(), event, partnerId, at)));
        await writeSnapshots(trx, diff.writes, at);
      });
    }
    done += crewIds.length;
    onPage?.(done);
  }
  if (!deps.dryRun) {
    for (const plan of plans) {
      await sweepDeparted(db, plan);
      await recordSyncRun(db, plan.partner.partnerId, at, plan.baseline);
    }
  }
  return plans.map((p) => p.result);
}

/** Crew who left a partner's fleet: forget what was sent, so a return is a join again. No event. */
async function sweepDeparted(db: Db, plan: PartnerPlan): Promise<void> {
  for (let after: string | null = null; ;) {
    const page = await snapshotCrewPage(db, plan.partner.partnerId, after, 5000);
    if (page.length === 0) return;
    after = page[page.length - 1]!;
    const gone = page.filter((id) => !plan.seen.has(id));
    if (gone.length > 0) await deleteSnapshots(db, plan.partner.partnerId, gone);
  }
}
