import { hash } from 'node:crypto';
import type { PlannedEvent } from '../../domain/events.ts';
import type { EventType } from '../../domain/vocabulary.ts';
import type { CrewSnapshot } from '../../store/repositories/sync-state-repo.ts';

/** A payload with its digest, computed once per run and shared by every partner that sees it. */
export interface Digested {
  data: Record<string, unknown>;
  digest: string;
}

/** What one partner may see of one crew member now. Absent parts are not visible to it. */
export interface CrewView {
  crewUniqueId: string;
  status?: Digested;
  profile?: Digested;
  /** crew.compliance.changed payloads by vessel id, one per vessel of the fleet the crew member is on. */
  compliance?: ReadonlyMap<string, Digested>;
  /** Listable documents it may see, by document id; undefined when documents are not visible. */
  documents?: ReadonlyMap<string, Digested>;
}

export function digested(data: Record<string, unknown>): Digested {
  // One-shot hash: the same digest as createHash('sha256'), without a Hash object per payload.
  return { data, digest: hash('sha256', JSON.stringify(data), 'base64url').slice(0, 22) };
}

/**
 * Compares what a partner may see of a crew member with what it was last sent. Returns the next
 * snapshot, the events to send, and the ids of documents that left the visible set while documents
 * stayed visible (the caller tells a replacement, which is an update, from a withdrawal, which is
 * silent). A subject without a previous digest is new: a join, a new consent or a new document.
 */
export function diffCrew(view: CrewView, prev: CrewSnapshot | undefined): {
  next: CrewSnapshot;
  events: PlannedEvent[];
  vanishedDocs: string[];
} {
  const crew = view.crewUniqueId;
  const events: PlannedEvent[] = [];
  const next: CrewSnapshot = {};
  const emit = (type: EventType, d: Digested) => events.push({ type, crewUniqueId: crew, data: d.data });

  if (view.status) {
    next.status = view.status.digest;
    if (next.status !== prev?.status) emit('crew.status.changed', view.status);
  }
  if (view.profile) {
    next.profile = view.profile.digest;
    if (next.profile !== prev?.profile) emit('crew.profile.updated', view.profile);
  }
  if (view.compliance) {
    next.compliance = {};
    for (const [vesselId, d] of view.compliance) {
      next.compliance[vesselId] = d.digest;
      if (d.digest !== prev?.compliance?.[vesselId]) emit('crew.compliance.changed', d);
    }
  }
  const vanishedDocs: string[] = [];
  if (view.documents) {
    next.docs = {};
    for (const [id, d] of view.documents) {
      next.docs[id] = d.digest;
      const before = prev?.docs?.[id];
      if (before === undefined) emit('crew.document.processed', d);
      else if (before !== d.digest) emit('crew.document.updated', d);
    }
    for (const id of Object.keys(prev?.docs ?? {})) if (!view.documents.has(id)) vanishedDocs.push(id);
  }
  return { next, events, vanishedDocs };
}

/** Snapshots compare equal when they hold the same digests (key order aside). */
export function sameSnapshot(a: CrewSnapshot | undefined, b: CrewSnapshot): boolean {
  if (!a) return false;
  const eqMap = (x?: Record<string, string>, y?: Record<string, string>) => {
    if (!x || !y) return x === y;
    const kx = Object.keys(x);
    return kx.length === Object.keys(y).length && kx.every((k) => x[k] === y[k]);
  };
  return a.status === b.status && a.profile === b.profile && eqMap(a.compliance, b.compliance) && eqMap(a.docs, b.docs);
}
