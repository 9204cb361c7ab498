import { DOCUMENT_CLASSES } from '../domain/classification.ts';
import { objectSchema } from '../domain/fields.ts';
import {
  ATTEMPT_ERROR_CLASSES,
  BACKGROUND_CHECK_STATUSES,
  COMPLIANCE_SOURCES,
  CONSENT_CATEGORIES,
  DOCUMENT_STATUSES,
  EMPLOYMENT_SOURCES,
  EVENT_TYPES,
  EXPIRING_WINDOW_DAYS,
  KEY_MODES,
  ON_FLEET_STATUSES,
  OVERALL_STATUSES,
  PARTNER_KINDS,
  PARTNER_TIERS,
  REQUIREMENT_STATUSES,
  REVIEW_STATUSES,
  VERIFICATION_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
} from '../domain/vocabulary.ts';
import { registrationFields, SECRET_MAX, SECRET_MIN } from '../domain/webhook-registration.ts';
import { complianceSchemas, complianceSummary, MEDICAL_ON } from './compliance-schemas.ts';
import { ERROR_CODES } from './errors.ts';
import { ingestSchemas } from './ingest-schemas.ts';
import { dateTime, nullable, ref, type JsonObject } from './types.ts';

const str = { type: 'string' };
const date = { type: 'string', format: 'date' };
const strings = { type: 'array', items: str };

function object(properties: Record<string, JsonObject>, required: string[] = Object.keys(properties), extra: JsonObject = {}): JsonObject {
  return { type: 'object', properties, required, ...extra };
}

const resources: Record<string, JsonObject> = {
  PartnerMe: object({
    partner_id: str,
    name: str,
    kind: { enum: [...PARTNER_KINDS] },
    tier: { ...nullable({ type: 'string', enum: [...PARTNER_TIERS] }), description: 'null for external partners' },
    mode: { enum: [...KEY_MODES], description: 'live keys see live data only, test keys test-flagged data only' },
    key_id: str,
    scopes: { ...strings, description: 'effective scopes, sorted' },
    rate_limit: object({ limit: { type: 'integer' }, window_seconds: { type: 'integer' } }),
    webhook_public_keys: {
      type: 'array',
      items: { ...str, pattern: '^whpk_[A-Za-z0-9+/]{43}=$' },
      description:
        'the Ed25519 public keys (`whpk_` + standard base64 of the 32 key bytes) whose Standard Webhooks `v1a` signatures your ' +
        'webhook deliveries carry now: empty unless the operator chose Ed25519 signatures for your endpoint, two during a key ' +
        'rotation (trust both; the first is the one in force). Verify with these, never with a key read from a request',
    },
  }),
  Vessel: object({
    vessel_id: str,
    vessel_name: str,
    imo: nullable(str),
    mmsi: nullable(str),
    flag_state: str,
    vessel_type: str,
  }),
  VesselList: object({ items: { type: 'array', items: ref('Vessel') } }),
  FleetEntry: object(
    {
      crew_unique_id: str,
      vessel_id: str,
      as_of: dateTime,
      name: str,
      vessel_name: str,
      vessel_imo: { ...nullable(str), description: 'null when the vessel has no IMO number' },
      role: str,
      status: { enum: [...ON_FLEET_STATUSES], description: 'present only with status consent and crew:status:read' },
      background_check_status: {
        enum: [...BACKGROUND_CHECK_STATUSES],
        description: 'present only with status consent and crew:status:read',
      },
      documents_expiring: {
        type: 'integer',
        minimum: 0,
        description:
          'listable documents expiring between today and today + expiring_within_days (UTC, inclusive); 0 without crew:documents:read or documents consent',
      },
    },
    ['crew_unique_id', 'vessel_id', 'as_of', 'name', 'vessel_name', 'vessel_imo', 'role', 'documents_expiring'],
  ),
  FleetPage: object(
    {
      items: { type: 'array', items: ref('FleetEntry') },
      expiring_within_days: { type: 'integer', minimum: EXPIRING_WINDOW_DAYS.min, maximum: EXPIRING_WINDOW_DAYS.max },
      next_cursor: { ...str, description: 'absent on the last page; pass it as `cursor` for the next page' },
    },
    ['items', 'expiring_within_days'],
  ),
  LookupResult: object({ crew_unique_id: str }),
  Capacity: object({
    stcw_regulation: nullable(str),
    role: str,
    level: nullable(str),
    gt_max: nullable({ type: 'integer' }),
    kw_max: nullable({ type: 'integer' }),
    power_unrestricted: { type: 'boolean' },
    area: str,
    vessel_types: strings,
  }),
  Classification: object({
    taxonomy_version: str,
    document_class: { enum: [...DOCUMENT_CLASSES] },
    category_code: str,
    catalogue_title: object({ id: str, name: str }),
    stcw_regulation: nullable(str),
    stcw_codes: strings,
    level: nullable(str),
    is_refresher: { type: 'boolean' },
    flag_state: nullable(str),
    coc_capacities: { type: 'array', items: ref('Capacity') },
    sources: strings,
  }),
  Document: object({
    document_id: str,
    type: str,
    category: str,
    title: str,
    issuer: { ...nullable(str), description: 'null when the issuing authority is unknown' },
    verification_status: { enum: [...VERIFICATION_STATUSES] },
    status: { enum: [...DOCUMENT_STATUSES] },
    issue_date: nullable(date),
    expiry_date: nullable(date),
    document_number: nullable(str),
    review_status: { enum: [...REVIEW_STATUSES] },
    is_expired: { type: 'boolean' },
    no_expiry: { type: 'boolean', description: 'true: the document never expires; false with a null expiry_date: not recorded' },
    is_current: { type: 'boolean' },
    superseded_by: nullable(str),
    classification: ref('Classification'),
  }),
  DocumentList: object({ crew_unique_id: str, items: { type: 'array', items: ref('Document') } }),
  DownloadLink: object({
    document_id: str,
    download_url: { ...str, format: 'uri', description: 'GET /api/v2/files/{token} on this service; follow it at once, do not store it' },
    expires_at: dateTime,
    content_type: str,
    file_name: str,
  }),
  Address: object({
    line1: { ...nullable(str), description: 'null when no street was supplied' },
    line2: nullable(str),
    city: nullable(str),
    region: nullable(str),
    postal_code: nullable(str),
    country_code: nullable(str),
    full_address: { ...str, description: 'street lines, city, "region postal_code", country, comma-separated, missing parts skipped' },
  }),
  EmploymentEntry: object({
    employer_name: str,
    vessel_name: nullable(str),
    role: str,
    start_date: date,
    end_date: nullable(date),
    source: { enum: [...EMPLOYMENT_SOURCES] },
  }),
  Profile: object(
    {
      crew_unique_id: str,
      name: { ...str, description: 'crew:profile:read' },
      rank: nullable(str),
      email: { ...nullable(str), description: 'crew:contact:read' },
      phone: { ...nullable({ type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$' }), description: 'E.164' },
      country_code: nullable(str),
      nationality: { ...nullable(str), description: 'crew:professional:read' },
      languages: strings,
      skills: strings,
      years_experience: nullable({ type: 'integer' }),
      bio: nullable(str),
      profile_photo_url: {
        ...nullable({ type: 'string', format: 'uri' }),
        description: "this service's photo route for the crew member, or null when none is held",
      },
      employment_history: { type: 'array', items: ref('EmploymentEntry'), description: 'crew:experience:read' },
      date_of_birth: { ...nullable(date), description: 'crew:personal:read' },
      address: nullable(ref('Address')),
      passport: nullable(object({ number: str, issuing_country: str, expiry_date: date })),
      visas: { type: 'array', items: object({ type: str, country_code: str, number: str, expiry_date: date }) },
    },
    ['crew_unique_id'],
    {
      description:
        'Each block is present only when its scope is effective (keys absent, not null): crew:profile:read name, rank; ' +
        'crew:contact:read email, phone, country_code; crew:professional:read nationality, languages, skills, years_experience, bio, ' +
        'profile_photo_url; crew:experience:read employment_history; crew:personal:read date_of_birth, address, passport, visas.',
    },
  ),
  SatisfyingDocument: object({
    document_id: str,
    title: nullable(str),
    expiry_date: nullable(date),
    download_path: {
      ...nullable({ ...str, format: 'uri' }),
      description:
        'absolute URL of GET /api/v2/files/{token} on this service, built like download_url, valid 15 minutes; null without crew:documents:download or documents consent, or when no file is held',
    },
  }),
  ModuleRow: object({
    code: str,
    name: nullable(str),
    status: nullable({ enum: [...REQUIREMENT_STATUSES] }),
    days_until_expiry: nullable({ type: 'integer' }),
    document_id: nullable(str),
  }),
  RequirementRow: object({
    key: str,
    group: { enum: ['medical', 'stcw', 'certificate', 'qualification'] },
    category: nullable(str),
    title: nullable(str),
    code: nullable(str),
    constraint: nullable(str),
    status: { enum: [...REQUIREMENT_STATUSES] },
    expiry_date: nullable(date),
    days_until_expiry: nullable({ type: 'integer' }),
    required: { type: 'boolean' },
    satisfied_by: {
      type: 'array',
      items: ref('SatisfyingDocument'),
      description: 'empty when missing, and for medical rows without crew:medical:read',
    },
    modules: {
      ...nullable({ type: 'array', items: ref('ModuleRow') }),
      description: 'per-module detail of STCW rows with modules (basic safety training)',
    },
  }),
  ComplianceCheck: object(
    {
      crew_unique_id: str,
      vessel_id: nullable(str),
      position_name: nullable(str),
      as_of: dateTime,
      on: { ...date, description: "the date evaluated: the request's `on`, else today; for a fallback, the day the result was stored" },
      medical_on: { ...date, description: MEDICAL_ON },
      overall_status: { enum: [...OVERALL_STATUSES] },
      compliance_source: { enum: [...COMPLIANCE_SOURCES] },
      summary: complianceSummary,
      requirements: { type: 'array', items: ref('RequirementRow') },
    },
    ['crew_unique_id', 'vessel_id', 'position_name', 'as_of', 'on', 'overall_status', 'compliance_source', 'summary', 'requirements'],
  ),
  // The rules registration applies (src/domain/webhook-registration.ts); the URL policy itself is in the descriptions.
  WebhookEndpointRequest: objectSchema(registrationFields(() => null)),
  WebhookEndpoint: object({
    endpoint_id: str,
    partner_id: str,
    url: str,
    subscribed_events: { type: 'array', items: { enum: [...EVENT_TYPES] } },
    notice_lead_days: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      description: 'lead times, in days, of `crew.compliance.upcoming`, longest first (90, 60 and 30 unless chosen at registration)',
    },
    status: { enum: [...WEBHOOK_ENDPOINT_STATUSES] },
    secret: { ...str, description: 'signs every delivery (X-Service-Signature); hand it to the partner over a secure channel' },
    public_key: {
      ...nullable(str),
      description:
        'with `ed25519`: the `whpk_` public key of the Ed25519 (`v1a`) signatures (the private key is never shown); null without',
    },
    created_at: dateTime,
    updated_at: dateTime,
    health: ref('WebhookEndpointHealth'),
  }),
  WebhookEndpointHealth: object(
    {
      consecutive_failures: { type: 'integer', minimum: 0, description: 'delivery attempts failed in a row (a delivered one resets it)' },
      failing_since: { ...nullable(dateTime), description: 'the first of those failed attempts; null while the latest attempt delivered' },
      last_success_at: { ...nullable(dateTime), description: 'the latest delivered attempt' },
      disabled_reason: {
        ...nullable(str),
        description:
          'why `svc sync` disabled the endpoint (every attempt failed for SVC_WEBHOOK_DISABLE_AFTER_DAYS); cleared when it is re-enabled',
      },
      disabled_at: { ...nullable(dateTime), description: 'when `svc sync` disabled it' },
    },
    undefined,
    {
      description:
        'How deliveries to the endpoint have gone; an endpoint failing every attempt for SVC_WEBHOOK_DISABLE_AFTER_DAYS (default 5) is disabled, its events waiting in the outbox until it is registered again with status `active`.',
    },
  ),
  SecretRotationRequest: object(
    {
      secret: {
        ...str,
        minLength: SECRET_MIN,
        maxLength: SECRET_MAX,
        pattern: '^[!-~]+$',
        description: 'the next secret; generated (`whsec_` + 32 random bytes, standard base64) when absent',
      },
      activate_at: { ...dateTime, description: 'when deliveries switch to the next secret; not in the past; default: in 24 hours' },
    },
    [],
    { additionalProperties: false },
  ),
  SecretRotation: object({
    endpoint_id: str,
    partner_id: str,
    next_secret: { ...str, description: 'shown this once: hand it to the partner, which accepts both secrets until activate_at' },
    next_public_key: {
      ...nullable(str),
      description:
        "with Ed25519 signatures: the next key pair's `whpk_` public key, signing beside the current one until activate_at, " +
        "alone afterwards (also in the partner's `GET /api/v2/partners/me`); null without",
    },
    activate_at: dateTime,
  }),
  TestDelivery: object({
    event_id: { ...str, description: 'the test event, stored with its attempt (`svc admin deliveries --event`)' },
    partner_id: str,
    url: { ...str, description: 'where it was sent: the endpoint URL as it stood' },
    attempted_at: dateTime,
    status_code: { ...nullable({ type: 'integer' }), description: 'what the endpoint answered; null when no answer came' },
    error: { ...nullable(str), description: 'why no answer came (a timeout, a refused connection or destination); null when one did' },
    error_class: { enum: [...ATTEMPT_ERROR_CLASSES, null], description: 'the class of `error`, as partners see it in their attempts' },
    duration_ms: { type: 'integer', minimum: 0 },
    delivered: { type: 'boolean', description: 'true when the endpoint answered 2xx' },
  }),
  Health: object({ status: { enum: ['ok', 'unavailable'] }, store: { enum: ['ok', 'unavailable'] } }),
  Empty: { type: 'object', maxProperties: 0 },
};

const errors: Record<string, JsonObject> = {
  Error: object({
    detail: object(
      {
        code: { enum: ERROR_CODES },
        message: str,
        required_scope: { ...str, description: 'insufficient_scope: the scope that was missing' },
        consent: { enum: [...CONSENT_CATEGORIES], description: 'consent_required: the category withheld' },
      },
      ['code', 'message'],
    ),
  }),
  ValidationIssue: object(
    {
      type: str,
      loc: { type: 'array', items: { anyOf: [str, { type: 'integer' }] } },
      msg: str,
      input: { description: 'the offending input; strings cut to 200 characters' },
      ctx: { type: 'object' },
    },
    ['type', 'loc', 'msg'],
  ),
  ValidationError: object({ detail: { type: 'array', items: ref('ValidationIssue'), minItems: 1 } }),
};

export const schemas: Record<string, JsonObject> = { ...resources, ...complianceSchemas, ...ingestSchemas, ...errors };
