import { createHash } from 'node:crypto';
import { complianceChangedPayload, type ComplianceEvaluation } from '../../domain/compliance/index.ts';
import { toDocumentWire, type CrewDocument } from '../../domain/document.ts';
import type { CrewSnapshot } from '../../store/repositories/sync-state-repo.ts';

export type EventType = 'crew.document.processed' | 'crew.document.updated' | 'crew.compliance.changed' | 'crew.status.changed' | 'crew.profile.updated';

/** One event the diff decided to send: its type and payload (`data` of the envelope). */
export interface PlannedEvent {
  type: EventType;
  crewUniqueId: string;
  data: Record<string, unknown>;
}

/** What the partner may see of one crew member now. Absent parts are not visible to it. */
export interface CrewView {
  crewUniqueId: string;
  status?: { verification_status: string; background_check_status: string };
  profileUpdatedAt?: string;
  /** Compliance by vessel id, for each vessel of the fleet the crew member is on. */
  compliance?: Map<string, ComplianceEvaluation>;
  medicalVisible: boolean;
  /** Listable documents it may see; undefined when documents are not visible at all. */
  documents?: readonly CrewDocument[];
}

export function digest(payload: unknown): string {
  return createHash('sha256').update(JSON.stringify(payload)).digest('base64url').slice(0, 22);
}

/**
 * Compares what the partner may see of a crew member with what it was last sent. Returns the next
 * snapshot, the events to send, and the ids of documents that left the visible set while documents
 * stayed visible (the caller tells a replacement, which is an update, from a withdrawal, which is
 * silent). A subject without a previous digest is new: a join, a new consent or a new document.
 */
export function diffCrew(view: CrewView, prev: CrewSnapshot | undefined, today: string): {
  next: CrewSnapshot;
  events: PlannedEvent[];
  vanishedDocs: string[];
} {
  const crew = view.crewUniqueId;
  const events: PlannedEvent[] = [];
  const next: CrewSnapshot = {};
  const emit = (type: EventType, data: Record<string, unknown>) => events.push({ type, crewUniqueId: crew, data });

  if (view.status) {
    const data = { crew_unique_id: crew, ...view.status };
    next.status = digest(data);
    if (next.status !== prev?.status) emit('crew.status.changed', data);
  }
  if (view.profileUpdatedAt !== undefined) {
    const data = { crew_unique_id: crew, updated_at: view.profileUpdatedAt };
    next.profile = digest(data);
    if (next.profile !== prev?.profile) emit('crew.profile.updated', data);
  }
  if (view.compliance) {
    next.compliance = {};
    for (const [vesselId, evaluation] of view.compliance) {
      const data = { ...complianceChangedPayload(evaluation, crew, view.medicalVisible) };
      const d = digest(data);
      next.compliance[vesselId] = d;
      if (d !== prev?.compliance?.[vesselId]) emit('crew.compliance.changed', data);
    }
  }
  const vanishedDocs: string[] = [];
  if (view.documents) {
    next.docs = {};
    for (const doc of view.documents) {
      const data = { crew_unique_id: crew, ...toDocumentWire(doc, today) };
      const d = digest(data);
      next.docs[doc.documentId] = d;
      const before = prev?.docs?.[doc.documentId];
      if (before === undefined) emit('crew.document.processed', data);
      else if (before !== d) emit('crew.document.updated', data);
    }
    for (const id of Object.keys(prev?.docs ?? {})) if (!(id in next.docs)) vanishedDocs.push(id);
  }
  return { next, events, vanishedDocs };
}
