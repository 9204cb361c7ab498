/*
 * The event catalogue: one entry per webhook event type, declaring who may be sent it (scope and
 * consent), which subject of the snapshot it compares and when it fires, the payload it carries
 * and how the OpenAPI document describes it. The sync diff (src/sync/diff/), the snapshot the
 * store keeps (src/store/repositories/sync-state-repo.ts) and the OpenAPI webhooks
 * (src/openapi/webhooks.ts) iterate over it; docs/architecture.md, "A new webhook event type",
 * says which files a new type touches.
 */

import { wireTime } from './clock.ts';
import type { Notice } from './compliance/notices.ts';
import { complianceChangedPayload, nextExpiryIsMedical } from './compliance/wire.ts';
import type { CrewSignals } from './crew.ts';
import { documentEventData, isMedicalDocumentPayload, replacedEdition, verificationComplete } from './events.ts';
import type { Scope } from './scopes.ts';
import { COMPLIANCE_UPCOMING, EVENT_TYPES, PROFILE_UPDATED, type ConsentCategory, type EventType } from './vocabulary.ts';

/** What a partner needs to be sent an event: a scope it holds, and a consent the crew member gives it. */
export interface EventAccess {
  scope: Scope;
  consent: ConsentCategory;
}

/**
 * A further scope some payloads of a subject need: crew:medical:read for medical data. `applies`
 * tells it from a stored payload (a medical-class document); where the payload cannot show it (a
 * compliance summary whose next_expiry_date is a medical expiry), it is null, and the subject's
 * restriction says in `builtWith` how the diff tells it, which then records the scope with the
 * event (OutboxEvent.payloadScope).
 */
export interface PayloadRestriction {
  scope: Scope;
  applies: ((data: Record<string, unknown>) => boolean) | null;
  /** What the OpenAPI description of its event types adds to the access rule. */
  prose: string;
}

/**
 * The subjects a snapshot holds a payload digest of, in the order the diff emits their events.
 * A keyed subject has one payload per key (vessel id, document id); the others one per crew
 * member. `wire` opens the subject key events carry (subjectKey). `payload` names the payload's component schema in the OpenAPI document; `restriction`
 * a further scope some of its payloads need (the send-time access check applies it, the OpenAPI
 * description adds its prose to the access rule; PayloadRestriction says how it is told). `replaced`, on a keyed subject whose
 * keys are rows that a newer one can replace, tells from a row that left the partner's view
 * whether it was replaced (the partner is sent its final state) rather than withdrawn (silence).
 * `ready`, on a keyed subject, tells whether a row not yet sent to the partner may be sent now:
 * one that is not stays out of the view (no event, no digest) until it is; a key already sent
 * stays in the view whatever the rule says of it later.
 */
export const SNAPSHOT_SUBJECTS = {
  status: {
    keyed: false,
    wire: 'status',
    payload: 'StatusChangedData',
    build: statusChangedData,
    restriction: null,
    replaced: null,
    ready: null,
  },
  profile: {
    keyed: false,
    wire: 'profile',
    payload: 'ProfileUpdatedData',
    build: profileUpdatedData,
    restriction: null,
    replaced: null,
    ready: null,
  },
  compliance: {
    keyed: true,
    wire: 'compliance',
    payload: 'ComplianceChangedData',
    build: complianceChangedPayload,
    restriction: {
      scope: 'crew:medical:read',
      applies: null,
      // From `build`'s evaluation and medical visibility: whether the payload holds a medical expiry.
      builtWith: nextExpiryIsMedical,
      prose: 'a summary whose `next_expiry_date` is a medical expiry only while `crew:medical:read` is held',
    },
    replaced: null,
    ready: null,
  },
  // Keyed by `<vessel_id>|<date>|<lead>` (src/domain/compliance/notices.ts); a key stays until its date has come.
  notices: {
    keyed: true,
    wire: 'upcoming',
    payload: 'ComplianceUpcomingData',
    build: (notice: Notice) => notice.data as unknown as Record<string, unknown>,
    restriction: {
      scope: 'crew:medical:read',
      applies: null,
      prose:
        'a notice whose date or requirement keys come from medical rows only while `crew:medical:read` is held; ' +
        'without it medical rows keep their status of today, as in the check on a date',
    },
    replaced: null,
    ready: null,
  },
  docs: {
    keyed: true,
    wire: 'document',
    payload: 'DocumentEventData',
    build: documentEventData,
    restriction: {
      scope: 'crew:medical:read',
      applies: isMedicalDocumentPayload,
      prose: 'medical-class documents only with `crew:medical:read`',
    },
    replaced: replacedEdition,
    ready: verificationComplete,
  },
} as const;
export type SnapshotSubject = keyof typeof SNAPSHOT_SUBJECTS;
/** The component schema names of the payloads (src/openapi/webhooks.ts declares one schema per name). */
export type EventPayloadName = (typeof SNAPSHOT_SUBJECTS)[SnapshotSubject]['payload'];
export const SNAPSHOT_SUBJECT_NAMES = Object.keys(SNAPSHOT_SUBJECTS) as SnapshotSubject[];
/** The subjects with one payload per key. */
export type KeyedSubject = { [S in SnapshotSubject]: (typeof SNAPSHOT_SUBJECTS)[S]['keyed'] extends true ? S : never }[SnapshotSubject];
type SingleSubject = Exclude<SnapshotSubject, KeyedSubject>;

/** What one partner was last sent about one crew member: a digest per subject (keyed ones by key), as stored. */
export type CrewSnapshot = { [S in SingleSubject]?: string } & { [S in KeyedSubject]?: Record<string, string> };

/** Escapes the separator of a subject key's parts, so that any id keeps the key unambiguous. */
function keyPart(part: string): string {
  return part.replaceAll('%', '%25').replaceAll(':', '%3A');
}

/**
 * The key of the subject an event describes (docs/webhooks.md, "Order: sequence and subject"):
 * `status:<crew>`, `profile:<crew>`, `compliance:<crew>:<vessel_id>`, `document:<document_id>`,
 * `upcoming:<crew>:<vessel_id>|<date>|<lead_days>`,
 * each part with `%` and `:` percent-encoded. Events with the same key carry states of the same
 * thing; the one with the highest sequence is the newest.
 */
export function subjectKey(subject: SnapshotSubject, crewUniqueId: string, key?: string): string {
  if (subject === 'docs') return `${SNAPSHOT_SUBJECTS.docs.wire}:${keyPart(key!)}`;
  const head = `${SNAPSHOT_SUBJECTS[subject].wire}:${keyPart(crewUniqueId)}`;
  return key === undefined ? head : `${head}:${keyPart(key)}`;
}

export function isKeyedSubject(subject: SnapshotSubject): subject is KeyedSubject {
  return SNAPSHOT_SUBJECTS[subject].keyed;
}

/**
 * What comparing a subject with what the partner was last sent finds: a subject (or key) new to
 * the partner, one whose digest changed, or a key sent before that left the view and that the
 * subject's `replaced` rule says was replaced.
 */
export type Finding = 'new' | 'changed' | 'replaced';

/** One event type: its access rule, the subject it compares and the findings it fires on, and its OpenAPI summary and description. */
export interface EventEntry {
  access: EventAccess;
  subject: SnapshotSubject;
  firesOn: readonly Finding[];
  summary: string;
  /** Follows the sentence the OpenAPI document writes from `access`. */
  description: string;
}

export const EVENT_CATALOGUE: Record<EventType, EventEntry> = {
  'crew.document.processed': {
    access: { scope: 'crew:documents:read', consent: 'documents' },
    subject: 'docs',
    firesOn: ['new'],
    summary: 'A document finished processing and verification',
    description:
      "Sent once the document's `verification_status` is no longer `pending` (`verified` or `unverified`); one still pending is sent when its " +
      'verification completes. Also sent for each such document a crew member already holds when they join one of your vessels, or when documents consent is given.',
  },
  'crew.document.updated': {
    access: { scope: 'crew:documents:read', consent: 'documents' },
    subject: 'docs',
    firesOn: ['changed', 'replaced'],
    summary: 'A visible change to a document already sent',
    description:
      'Re-verification, a corrected date, replacement by a newer edition ' +
      '(`is_current` false, `superseded_by` set, `status` `superseded`) or a change of classification. There is no removal event.',
  },
  'crew.compliance.changed': {
    access: { scope: 'crew:compliance:read', consent: 'compliance' },
    subject: 'compliance',
    firesOn: ['new', 'changed'],
    summary: "A crew member's compliance summary on one vessel changed",
    description: 'Sent only when a figure of the payload changes; the full breakdown comes from the compliance check endpoint.',
  },
  'crew.status.changed': {
    access: { scope: 'crew:status:subscribe', consent: 'status' },
    subject: 'status',
    firesOn: ['new', 'changed'],
    summary: 'Verification or background-check status changed',
    description: 'The payload suffices; no read is needed.',
  },
  [COMPLIANCE_UPCOMING]: {
    access: { scope: 'crew:compliance:read', consent: 'compliance' },
    subject: 'notices',
    firesOn: ['new'],
    summary: "A crew member's compliance status on one vessel will change by the calendar alone",
    description:
      'Sent once per crew member, vessel, date of the change and lead time when today plus the lead time reaches the date of the ' +
      "first change the calendar brings (the fleet compliance list's `next_change`); lead times are the endpoint's `notice_lead_days` (default 90, 60 and 30). " +
      'Only to endpoints that subscribe to it.',
  },
  [PROFILE_UPDATED]: {
    access: { scope: 'crew:profile:read', consent: 'profile' },
    subject: 'profile',
    firesOn: ['new', 'changed'],
    summary: 'A crew member updated their profile',
    description: 'A change signal, not a diff: read the profile endpoint.',
  },
};

/** The event types of each subject, in catalogue order. */
export const EVENTS_OF_SUBJECT: Record<SnapshotSubject, readonly EventType[]> = Object.fromEntries(
  SNAPSHOT_SUBJECT_NAMES.map((subject) => [subject, EVENT_TYPES.filter((type) => EVENT_CATALOGUE[type].subject === subject)]),
) as Record<SnapshotSubject, EventType[]>;

/**
 * The access rule of a subject: that of its event types, which share it (the diff decides per
 * subject what a partner may see; test/domain/event-catalogue.test.ts holds them equal).
 */
export function subjectAccess(subject: SnapshotSubject): EventAccess {
  return EVENT_CATALOGUE[EVENTS_OF_SUBJECT[subject][0]!].access;
}

/** What a subject's digest shows against the one last sent (undefined: never sent); null when they are equal. */
export function compareDigest(before: string | undefined, digest: string): Finding | null {
  if (before === undefined) return 'new';
  return before === digest ? null : 'changed';
}

function statusChangedData(signals: CrewSignals): Record<string, unknown> {
  return {
    crew_unique_id: signals.crewUniqueId,
    verification_status: signals.verificationStatus,
    background_check_status: signals.backgroundCheckStatus,
  };
}

function profileUpdatedData(signals: CrewSignals): Record<string, unknown> {
  return { crew_unique_id: signals.crewUniqueId, updated_at: wireTime(signals.profileUpdatedAt) };
}
