import { hash } from 'node:crypto';
import {
  compareDigest,
  EVENT_CATALOGUE,
  EVENTS_OF_SUBJECT,
  isKeyedSubject,
  SNAPSHOT_SUBJECT_NAMES,
  subjectKey,
  type CrewSnapshot,
  type Finding,
  type KeyedSubject,
  type SnapshotSubject,
} from '../../domain/event-catalogue.ts';
import type { PlannedEvent } from '../../domain/events.ts';
import type { Scope } from '../../domain/scopes.ts';

/** A payload with its digest, computed once per run and shared by every partner that sees it. */
export interface Digested {
  data: Record<string, unknown>;
  digest: string;
  /** The scope its events need besides their type's, when built from data the payload cannot show (PlannedEvent.payloadScope). */
  scope?: Scope;
}

/**
 * What one partner may see of one crew member now, per subject of the event catalogue: one
 * payload, or for a keyed subject one per key (compliance by vessel id of the fleet the crew
 * member is on, listable documents by document id). Absent subjects are not visible to it.
 * `replaced`: keys the partner may have been sent that left a keyed subject's view and that the
 * subject's `replaced` rule says were replaced, with the payload of their final state.
 */
export type CrewView = { crewUniqueId: string; replaced?: { [S in KeyedSubject]?: ReadonlyMap<string, Digested> } } & {
  [S in SnapshotSubject]?: CrewSnapshot[S] extends string | undefined ? Digested : ReadonlyMap<string, Digested>;
};

export function digested(data: Record<string, unknown>): Digested {
  // One-shot hash: the same digest as createHash('sha256'), without a Hash object per payload.
  return { data, digest: hash('sha256', JSON.stringify(data), 'base64url').slice(0, 22) };
}

/**
 * Compares what a partner may see of a crew member with what it was last sent, subject by subject
 * in catalogue order, and emits each event type of the subject whose `firesOn` holds what the
 * comparison found. A subject without a previous digest is new: a join, a new consent or a new
 * document. A key sent before that left a subject still visible is found replaced when the view
 * says so (its final state is sent), and otherwise leaves silently. Returns the next snapshot and
 * the events to send.
 */
export function diffCrew(view: CrewView, prev: CrewSnapshot | undefined): { next: CrewSnapshot; events: PlannedEvent[] } {
  const crewUniqueId = view.crewUniqueId;
  const events: PlannedEvent[] = [];
  const next: CrewSnapshot = {};
  const emit = (subject: SnapshotSubject, finding: Finding | null, payload: Digested, key?: string) => {
    if (finding === null) return;
    const subjectOf = subjectKey(subject, crewUniqueId, key);
    for (const type of EVENTS_OF_SUBJECT[subject]) {
      if (!EVENT_CATALOGUE[type].firesOn.includes(finding)) continue;
      events.push({
        type,
        crewUniqueId,
        subject: subjectOf,
        data: payload.data,
        ...(payload.scope ? { payloadScope: payload.scope } : {}),
      });
    }
  };

  for (const subject of SNAPSHOT_SUBJECT_NAMES) {
    if (isKeyedSubject(subject)) {
      const payloads = view[subject];
      if (!payloads) continue;
      const digests: Record<string, string> = (next[subject] = {});
      const sent = prev?.[subject];
      for (const [key, payload] of payloads) {
        digests[key] = payload.digest;
        emit(subject, compareDigest(sent?.[key], payload.digest), payload, key);
      }
      for (const [key, payload] of view.replaced?.[subject] ?? []) {
        if (sent?.[key] !== undefined && !payloads.has(key)) emit(subject, 'replaced', payload, key);
      }
    } else {
      const payload = view[subject];
      if (!payload) continue;
      next[subject] = payload.digest;
      emit(subject, compareDigest(prev?.[subject], payload.digest), payload);
    }
  }
  return { next, events };
}

/** Snapshots compare equal when they hold the same digests (key order aside). */
export function sameSnapshot(stored: CrewSnapshot | undefined, fresh: CrewSnapshot): boolean {
  if (!stored) return false;
  const sameDigests = (before?: Record<string, string>, after?: Record<string, string>) => {
    if (!before || !after) return before === after;
    const keys = Object.keys(before);
    return keys.length === Object.keys(after).length && keys.every((key) => before[key] === after[key]);
  };
  return SNAPSHOT_SUBJECT_NAMES.every((subject) =>
    isKeyedSubject(subject) ? sameDigests(stored[subject], fresh[subject]) : stored[subject] === fresh[subject],
  );
}
