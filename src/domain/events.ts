/*
 * Event rules: what a partner is sent about a change, as pure functions of domain objects. The
 * sync diff (src/sync/diff/) applies them; the event catalogue is event-catalogue.ts.
 */

import { toDocumentWire, type CrewDocument } from './document.ts';
import type { Scope } from './scopes.ts';
import type { EventType } from './vocabulary.ts';

/** One event the diff decided to send: its type and payload (`data` of the envelope). */
export interface PlannedEvent {
  type: EventType;
  crewUniqueId: string;
  /** The key of the subject it describes (subjectKey in event-catalogue.ts). */
  subject: string;
  data: Record<string, unknown>;
  /**
   * The scope of its subject's restriction, when the payload was built from restricted data the
   * payload itself cannot show (a medical expiry in a compliance summary); stored with the event.
   */
  payloadScope?: Scope;
}

/** The payload of crew.document.processed and crew.document.updated: the document's wire shape with its crew member. */
export function documentEventData(doc: CrewDocument, today: string): Record<string, unknown> {
  return { crew_unique_id: doc.crewUniqueId, ...toDocumentWire(doc, today) };
}

/** Whether a document payload is of a medical-class document (which needs crew:medical:read besides the documents scope). */
export function isMedicalDocumentPayload(data: Record<string, unknown>): boolean {
  return (data.classification as { document_class?: unknown } | undefined)?.document_class === 'medical';
}

/**
 * Whether a document that left a partner's document list was replaced by a newer edition
 * (processed, still live, no longer current, superseded_by set): the partner is then sent its
 * final state as crew.document.updated. One withdrawn, rejected or sent back for processing leaves
 * silently (docs/webhooks.md, "When events are sent"). The `replaced` rule of the catalogue's
 * `docs` subject (event-catalogue.ts).
 */
export function replacedEdition(doc: CrewDocument): boolean {
  return doc.processingState === 'processed' && doc.isLive && !doc.isCurrent && doc.supersededBy !== null;
}

/**
 * Whether a document's verification is complete (`verified` or `unverified`, no longer
 * `pending`): document events fire "when processing and verification complete"
 * (docs/contract.md), so a partner is first sent a document, as crew.document.processed, only
 * then. One already sent stays sent whatever its verification does later (docs/decisions.md,
 * "Sync"). The `ready` rule of the catalogue's `docs` subject (event-catalogue.ts).
 */
export function verificationComplete(doc: CrewDocument): boolean {
  return doc.verificationStatus !== 'pending';
}
