import {
  ATTEMPT_ERROR_CLASSES,
  ATTEMPT_EXCERPT_CHARS,
  BACKGROUND_CHECK_STATUSES,
  DELIVERY_OUTCOMES,
  EVENT_DELIVERY_STATES,
  EVENT_TYPES,
  OVERALL_STATUSES,
  SCHEMA_VERSION,
  VERIFICATION_STATUSES,
  type EventType,
} from '../domain/vocabulary.ts';
import { EVENT_CATALOGUE, SNAPSHOT_SUBJECTS, type EventPayloadName, type PayloadRestriction } from '../domain/event-catalogue.ts';
import { deliveryStatsSchema } from './delivery-stats-schema.ts';
import { dateTime, nullable, ref, type JsonObject } from './types.ts';

/*
 * The `webhooks` of the document: one POST per event type of the event catalogue
 * (src/domain/event-catalogue.ts), as `svc sync` delivers it (docs/webhooks.md). Body schemas are components so the events feed (GET /api/v2/events) can
 * list the same envelopes.
 */

const str = { type: 'string' };
const date = { type: 'string', format: 'date' };

function object(properties: Record<string, JsonObject>, required: string[] = Object.keys(properties)): JsonObject {
  return { type: 'object', properties, required };
}

/** The component name of an event type's envelope: `crew.status.changed` → `CrewStatusChangedEvent`. */
export function eventSchemaName(type: EventType): string {
  return `${type
    .split('.')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;
}

/** What the document says of an event type: its catalogue entry's access rule, then its description. */
function eventDescription(type: EventType): string {
  const { access, subject, description } = EVENT_CATALOGUE[type];
  const restriction: PayloadRestriction | null = SNAPSHOT_SUBJECTS[subject].restriction;
  return `Scope \`${access.scope}\` and ${access.consent} consent${restriction ? ` (${restriction.prose})` : ''}. ${description}`;
}

const SEQUENCE = {
  type: 'integer',
  minimum: 1,
  description:
    'the number of this event among yours, strictly increasing in the order events are created for you; the same at every attempt and replay',
} as const;
const SUBJECT = {
  type: 'string',
  description:
    'the key of what the event describes (`status:<crew>`, `profile:<crew>`, `compliance:<crew>:<vessel_id>`, `document:<document_id>`, ' +
    '`upcoming:<crew>:<vessel_id>|<date>|<lead_days>`, ' +
    'each part with `%` and `:` percent-encoded): of two events with the same subject, the higher `sequence` is the newer state',
} as const;

/** Payload (`data`) and envelope schemas, added to components.schemas; the payload names are those of the catalogue's subjects. */
export function webhookSchemas(documentSchema: JsonObject): Record<string, JsonObject> {
  const documentProperties = documentSchema.properties as Record<string, JsonObject>;
  // Keyed by the catalogue's payload names: the compiler asks for a schema when a subject is added.
  const payloads: Record<EventPayloadName, JsonObject> = {
    DocumentEventData: object({ crew_unique_id: str, ...documentProperties }),
    ComplianceChangedData: object({
      crew_unique_id: str,
      vessel_id: str,
      overall_status: { enum: [...OVERALL_STATUSES] },
      requirements_met: { type: 'integer', minimum: 0 },
      requirements_total: { type: 'integer', minimum: 0 },
      requirements_expiring: { type: 'integer', minimum: 0 },
      next_expiry_date: { ...nullable(date), description: 'the earliest expiry among required rows that are met or expiring, or null' },
    }),
    ComplianceUpcomingData: object({
      crew_unique_id: str,
      vessel_id: str,
      on: { ...date, description: 'the first day with the new status: `next_change.on` of the fleet compliance list' },
      overall_status: { enum: [...OVERALL_STATUSES], description: 'the status from `on`' },
      requirement_keys: { type: 'array', items: str, description: 'the required rows whose status changes on `on`, sorted' },
      lead_days: { type: 'integer', minimum: 0, description: 'the lead time crossed: `on` is at most this many days ahead' },
    }),
    StatusChangedData: object({
      crew_unique_id: str,
      verification_status: { enum: [...VERIFICATION_STATUSES] },
      background_check_status: { enum: [...BACKGROUND_CHECK_STATUSES] },
    }),
    ProfileUpdatedData: object({
      crew_unique_id: str,
      updated_at: { ...dateTime, description: 'when the crew member last changed their profile' },
    }),
  };
  const out: Record<string, JsonObject> = { ...payloads };
  for (const type of EVENT_TYPES) {
    const properties: Record<string, JsonObject> = {
      schema_version: { const: SCHEMA_VERSION },
      event_id: {
        type: 'string',
        pattern: '^evt_',
        description: 'unique per event; the same at every attempt and replay: deduplicate on it',
      },
      event_type: { const: type },
      occurred_at: { ...dateTime, description: 'when the sync run found the change (UTC, whole seconds)' },
      partner_id: str,
      sequence: { ...SEQUENCE, description: `${SEQUENCE.description}; absent only from envelopes delivered before events were numbered` },
      subject: { ...SUBJECT, description: `${SUBJECT.description}; absent as \`sequence\` is` },
      data: ref(SNAPSHOT_SUBJECTS[EVENT_CATALOGUE[type].subject].payload),
    };
    out[eventSchemaName(type)] = {
      ...object(
        properties,
        Object.keys(properties).filter((name) => name !== 'sequence' && name !== 'subject'),
      ),
      description: `The envelope of \`${type}\`, exactly the bytes of the delivery body.`,
    };
  }
  out.EventFeedItem = object({
    event: {
      oneOf: EVENT_TYPES.map((type) => ref(eventSchemaName(type))),
      discriminator: {
        propertyName: 'event_type',
        mapping: Object.fromEntries(EVENT_TYPES.map((type) => [type, `#/components/schemas/${eventSchemaName(type)}`])),
      },
      description: 'the envelope exactly as delivered (or to be delivered): same event_id, same data',
    },
    delivery_status: {
      enum: [...EVENT_DELIVERY_STATES],
      description:
        '`pending`: not attempted yet; `retrying`: an attempt failed, more are scheduled; `delivered`: a 2xx was received; `dead`: dead-lettered; `suppressed`: not sent, because the access rule (fleet, scope, consent, subscription) refused it when it was due',
    },
    sequence: SEQUENCE,
    subject: SUBJECT,
  });
  out.EventAttempts = object({
    event_id: { type: 'string', pattern: '^evt_' },
    sequence: { ...nullable({ type: 'integer', minimum: 1 }), description: "the event's `sequence`" },
    delivery_status: { enum: [...EVENT_DELIVERY_STATES] },
    next_attempt_at: {
      ...nullable(dateTime),
      description: 'when the next attempt is due; null once delivered, dead-lettered or suppressed',
    },
    attempts: {
      type: 'array',
      description: 'oldest first',
      items: object({
        attempt_no: { type: 'integer', minimum: 1 },
        attempted_at: dateTime,
        duration_ms: { type: 'integer', minimum: 0, description: 'from the start of the request to the answer (or the error)' },
        status_code: { ...nullable({ type: 'integer' }), description: 'what your endpoint answered; null when no answer arrived' },
        error_class: {
          enum: [...ATTEMPT_ERROR_CLASSES, null],
          description: 'why no answer arrived; null when one did',
        },
        outcome: { enum: [...DELIVERY_OUTCOMES], description: '`failed_permanent` and `dead` dead-lettered the event' },
        response_excerpt: {
          ...nullable({ type: 'string', maxLength: ATTEMPT_EXCERPT_CHARS }),
          description: `at most the first ${ATTEMPT_EXCERPT_CHARS} characters of the body your endpoint answered`,
        },
      }),
    },
  });
  out.DeliveryStats = deliveryStatsSchema();
  out.EventsPage = object(
    {
      items: { type: 'array', items: ref('EventFeedItem') },
      next_cursor: { ...str, description: 'absent on the last page; pass it as `cursor` for the next page' },
    },
    ['items'],
  );
  return out;
}

const header = (name: string, description: string, schema: JsonObject): JsonObject => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** Sent only to endpoints whose secret serves both schemes (docs/webhooks.md, "Standard Webhooks"). */
const standard = (name: string, description: string, schema: JsonObject): JsonObject => ({
  ...header(name, description, schema),
  required: false,
});

// One `webhook-signature` entry: an HMAC-SHA256 (32 bytes) or an Ed25519 signature (64 bytes), standard base64.
const SIGNATURE_ENTRY = '(v1,[A-Za-z0-9+/]{43}=|v1a,[A-Za-z0-9+/]{86}==)';

function deliveryParameters(type: EventType): JsonObject[] {
  return [
    header('X-Service-Event-Id', 'the event id, as in the body', { type: 'string', pattern: '^evt_' }),
    header('X-Service-Event-Type', 'the event type', { type: 'string', const: type }),
    header('X-Service-Timestamp', 'Unix seconds when this attempt was signed; reject it when more than 300 s from your clock', {
      type: 'string',
      pattern: '^[0-9]+$',
    }),
    header(
      'X-Service-Signature',
      '`v1=` + hex HMAC-SHA256, keyed with the endpoint secret, over `<X-Service-Timestamp>.<raw body bytes>`; compare in constant time',
      { type: 'string', pattern: '^v1=[0-9a-f]{64}$' },
    ),
    header('X-Service-Schema-Version', 'the envelope version', { type: 'string', const: String(SCHEMA_VERSION) }),
    // Standard Webhooks (https://www.standardwebhooks.com): when the endpoint's secret serves both schemes or it has Ed25519 keys.
    standard('webhook-id', 'Standard Webhooks: the event id, as in X-Service-Event-Id', { type: 'string', pattern: '^evt_' }),
    standard('webhook-timestamp', 'Standard Webhooks: the same Unix seconds as X-Service-Timestamp', {
      type: 'string',
      pattern: '^[0-9]+$',
    }),
    standard(
      'webhook-signature',
      'Standard Webhooks, space-separated: `v1,` + base64 HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed ' +
        'with the base64-decoded part of the secret after `whsec_`, one per secret while a rotation is pending; then, when the ' +
        'operator chose Ed25519 signatures for the endpoint, `v1a,` + base64 Ed25519 signature of the same text, one per key ' +
        'pair while a rotation is pending: verify it with a `whpk_` key of `webhook_public_keys` (`GET /api/v2/partners/me`)',
      { type: 'string', pattern: `^${SIGNATURE_ENTRY}( ${SIGNATURE_ENTRY})*$` },
    ),
  ];
}

const RECEIVER_ANSWERS: Record<string, JsonObject> = {
  '2XX': { description: 'Delivered: answer at once and process afterwards' },
  '4XX': {
    description: 'Any 4xx other than 408 and 429 refuses the event for good: it is dead-lettered at once. 408 and 429 are retried.',
  },
  '5XX': { description: 'Retried with backoff (3 attempts in the run, then after 5 min, 30 min, 2 h, 5 h, 10 h), then dead-lettered' },
};

/** The document's `webhooks`: what svc POSTs to a partner's endpoint, one entry per event type. */
export function webhookOperations(): Record<string, JsonObject> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const name = eventSchemaName(type);
      return [
        type,
        {
          post: {
            operationId: name[0]!.toLowerCase() + name.slice(1),
            tags: ['webhooks'],
            summary: EVENT_CATALOGUE[type].summary,
            description: `${eventDescription(type)} Delivered by \`svc sync\` to the partner's registered endpoint, signed; at-least-once and unordered.`,
            security: [],
            parameters: deliveryParameters(type),
            requestBody: { required: true, content: { 'application/json': { schema: ref(name) } } },
            responses: RECEIVER_ANSWERS,
          },
        },
      ];
    }),
  );
}
