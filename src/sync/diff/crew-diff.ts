import { hash } from 'node:crypto';
import {
  EVENT_CATALOGUE, EVENTS_OF_SUBJECT, fires, isKeyedSubject, SNAPSHOT_SUBJECT_NAMES, type CrewSnapshot, type SnapshotSubject,
} from '../../domain/event-catalogue.ts';
import type { PlannedEvent } from '../../domain/events.ts';

/** A payload with its digest, computed once per run and shared by every partner that sees it. */
export interface Digested {
  data: Record<string, unknown>;
  digest: string;
}

/**
 * What one partner may see of one crew member now, per subject of the event catalogue: one
 * payload, or for a keyed subject one per key (compliance by vessel id of the fleet the crew
 * member is on, listable documents by document id). Absent subjects are not visible to it.
 */
export type CrewView = { crewUniqueId: string } & {
  [S in SnapshotSubject]?: CrewSnapshot[S] extends string | undefined ? Digested : ReadonlyMap<string, Digested>;
};

export function digested(data: Record<string, unknown>): Digested {
  // One-shot hash: the same digest as createHash('sha256'), without a Hash object per payload.
  return { data, digest: hash('sha256', JSON.stringify(data), 'base64url').slice(0, 22) };
}

/**
 * Compares what a partner may see of a crew member with what it was last sent, subject by subject
 * in catalogue order, and emits each event type of the subject whose `firesOn` the comparison
 * meets. Returns the next snapshot, the events to send, and the ids of documents that left the
 * visible set while documents stayed visible (the caller tells a replacement, which is an update,
 * from a withdrawal, which is silent). A subject without a previous digest is new: a join, a new
 * consent or a new document.
 */
export function diffCrew(view: CrewView, prev: CrewSnapshot | undefined): {
  next: CrewSnapshot;
  events: PlannedEvent[];
  vanishedDocs: string[];
} {
  const crewUniqueId = view.crewUniqueId;
  const events: PlannedEvent[] = [];
  const next: CrewSnapshot = {};
  const compare = (subject: SnapshotSubject, before: string | undefined, payload: Digested) => {
    for (const type of EVENTS_OF_SUBJECT[subject]) {
      if (fires(EVENT_CATALOGUE[type].firesOn, before, payload.digest)) events.push({ type, crewUniqueId, data: payload.data });
    }
  };

  for (const subject of SNAPSHOT_SUBJECT_NAMES) {
    if (isKeyedSubject(subject)) {
      const payloads = view[subject];
      if (!payloads) continue;
      const digests: Record<string, string> = (next[subject] = {});
      for (const [key, payload] of payloads) {
        digests[key] = payload.digest;
        compare(subject, prev?.[subject]?.[key], payload);
      }
    } else {
      const payload = view[subject];
      if (!payload) continue;
      next[subject] = payload.digest;
      compare(subject, prev?.[subject], payload);
    }
  }
  const vanishedDocs = view.docs ? Object.keys(prev?.docs ?? {}).filter((id) => !view.docs!.has(id)) : [];
  return { next, events, vanishedDocs };
}

/** Snapshots compare equal when they hold the same digests (key order aside). */
export function sameSnapshot(a: CrewSnapshot | undefined, b: CrewSnapshot): boolean {
  if (!a) return false;
  const sameDigests = (x?: Record<string, string>, y?: Record<string, string>) => {
    if (!x || !y) return x === y;
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((key) => x[key] === y[key]);
  };
  return SNAPSHOT_SUBJECT_NAMES.every((subject) => (isKeyedSubject(subject) ? sameDigests(a[subject], b[subject]) : a[subject] === b[subject]));
}
