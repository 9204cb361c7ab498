import { EVENT_TYPES, WEBHOOK_ENDPOINT_STATUSES, isEventType, type EventType, type WebhookEndpointStatus } from '../../domain/vocabulary.ts';
import { urlProblem, type DestinationPolicy } from './destination.ts';
import { issues, type ValidationIssue } from './validation-issue.ts';

/** A valid registration body, in TypeScript terms. */
export interface RegistrationInput {
  url: string;
  subscribedEvents: EventType[];
  /** Absent: the service generates one. */
  secret: string | undefined;
  status: WebhookEndpointStatus;
}

export type RegistrationCheck = { ok: true; value: RegistrationInput } | { ok: false; issues: ValidationIssue[] };

const FIELDS = ['url', 'subscribed_events', 'secret', 'status'] as const;
// Exported for the OpenAPI document, which states the same limits.
export const MAX_URL = 2048;
export const SECRET_MIN = 24;
export const SECRET_MAX = 256;
export const SECRET_PATTERN = '^[!-~]+$';

/** Records an issue; the field then has no valid value. */
function reject(out: ValidationIssue[], issue: ValidationIssue): undefined {
  out.push(issue);
  return undefined;
}

function checkUrl(body: Record<string, unknown>, policy: DestinationPolicy, out: ValidationIssue[]): string | undefined {
  const loc = ['body', 'url'];
  const value = body.url;
  if (value === undefined) return reject(out, issues.missing(loc, body));
  if (typeof value !== 'string') return reject(out, issues.stringType(loc, value));
  if (value.length > MAX_URL) return reject(out, issues.stringTooLong(loc, value, MAX_URL));
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return reject(out, issues.valueError(loc, value, 'url is not a valid absolute URL'));
  }
  const problem = urlProblem(url, policy);
  if (problem) return reject(out, issues.valueError(loc, value, problem));
  return url.href;
}

function checkEvents(body: Record<string, unknown>, out: ValidationIssue[]): EventType[] | undefined {
  const loc = ['body', 'subscribed_events'];
  const value = body.subscribed_events;
  if (value === undefined) return reject(out, issues.missing(loc, body));
  if (!Array.isArray(value)) return reject(out, issues.listType(loc, value));
  if (value.length === 0) return reject(out, issues.listTooShort(loc, value, 1, 0));
  const before = out.length;
  value.forEach((name, i) => {
    if (!isEventType(name)) out.push(issues.literalError([...loc, i], name, EVENT_TYPES));
  });
  return out.length === before ? [...new Set(value as EventType[])] : undefined;
}

function checkSecret(body: Record<string, unknown>, out: ValidationIssue[]): string | undefined {
  const loc = ['body', 'secret'];
  const value = body.secret;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return reject(out, issues.stringType(loc, value));
  // Issues at a secret-like loc never echo the value (src/domain/echo-input.ts).
  if (value.length < SECRET_MIN) return reject(out, issues.stringTooShort(loc, value, SECRET_MIN));
  if (value.length > SECRET_MAX) return reject(out, issues.stringTooLong(loc, value, SECRET_MAX));
  if (!new RegExp(SECRET_PATTERN).test(value)) return reject(out, issues.stringPatternMismatch(loc, value, SECRET_PATTERN));
  return value;
}

function checkStatus(body: Record<string, unknown>, out: ValidationIssue[]): WebhookEndpointStatus {
  const value = body.status;
  if (value === undefined) return 'active';
  if (!(WEBHOOK_ENDPOINT_STATUSES as readonly unknown[]).includes(value)) {
    out.push(issues.literalError(['body', 'status'], value, WEBHOOK_ENDPOINT_STATUSES));
  }
  return value as WebhookEndpointStatus;
}

/**
 * Validates a webhook endpoint registration body (docs/decisions.md §7) without touching the network:
 * every problem at once, in the pydantic v2 shape. DNS checks of the host come afterwards, in the
 * registration service.
 */
export function validateRegistration(body: unknown, policy: DestinationPolicy): RegistrationCheck {
  if (body === undefined || body === null) return { ok: false, issues: [issues.missing(['body'], null)] };
  if (typeof body !== 'object' || Array.isArray(body)) return { ok: false, issues: [issues.modelAttributesType(['body'], body)] };
  const record = body as Record<string, unknown>;
  const out: ValidationIssue[] = [];
  const url = checkUrl(record, policy, out);
  const subscribedEvents = checkEvents(record, out);
  const secret = checkSecret(record, out);
  const status = checkStatus(record, out);
  for (const key of Object.keys(record)) {
    if (!(FIELDS as readonly string[]).includes(key)) out.push(issues.extraForbidden(['body', key], record[key]));
  }
  if (out.length > 0 || url === undefined || subscribedEvents === undefined) return { ok: false, issues: out };
  return { ok: true, value: { url, subscribedEvents, secret, status } };
}
