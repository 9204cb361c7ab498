import { DEFAULT_NOTICE_LEAD_DAYS, MAX_NOTICE_LEAD_DAYS } from './compliance/notices.ts';
import { bool, convert, int, list, literal, nullable, str } from './fields.ts';
import { EVENT_TYPES, WEBHOOK_ENDPOINT_STATUSES } from './vocabulary.ts';

/*
 * The body of a webhook endpoint registration (docs/decisions.md §7), read by the registration
 * service for the HTTP route and the CLI alike; the OpenAPI request schema is derived from it.
 */

export const MAX_URL = 2048;
export const SECRET_MIN = 24;
export const SECRET_MAX = 256;
const SECRET_PATTERN = /^[!-~]+$/;

/**
 * The registration fields. `urlProblem` says why an absolute URL is refused as a destination
 * (scheme, credentials, literal addresses), or null; the accepted URL is normalised (`href`).
 */
export function registrationFields(urlProblem: (url: URL) => string | null) {
  return {
    url: {
      required: true,
      description: 'https and public, unless the server allows insecure webhooks (then also http to loopback); no credentials',
      parse: convert<string, string>(str({ maxLength: MAX_URL }), (text) => {
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          return { reason: 'url is not a valid absolute URL' };
        }
        const problem = urlProblem(url);
        return problem ? { reason: problem } : { value: url.href };
      }),
    },
    subscribed_events: {
      required: true,
      description: 'event catalogue names; duplicates are dropped',
      parse: convert(list(literal(EVENT_TYPES), { minLength: 1 }), (names) => ({ value: [...new Set(names)] })),
    },
    secret: {
      description: 'printable ASCII; generated when absent or null (also on rotation)',
      parse: nullable(str({ minLength: SECRET_MIN, maxLength: SECRET_MAX, pattern: SECRET_PATTERN })),
    },
    ed25519: {
      default: false,
      description:
        'also sign every delivery with an Ed25519 key pair svc generates (Standard Webhooks `v1a`, beside `v1`); the answer shows ' +
        'its public key, never the private one. Registering again with true keeps the key; false (the default) drops it',
      parse: bool(),
    },
    notice_lead_days: {
      default: [...DEFAULT_NOTICE_LEAD_DAYS],
      description:
        'lead times, in days, of `crew.compliance.upcoming`: one notice per lead time before each change the calendar brings; ' +
        'duplicates are dropped, the rest sorted longest first',
      parse: convert(list(int({ ge: 1, le: MAX_NOTICE_LEAD_DAYS }), { minLength: 1 }), (days) => ({
        value: [...new Set(days)].sort((a, b) => b - a),
      })),
    },
    status: {
      default: 'active',
      description: 'a disabled endpoint receives nothing; its events wait in the outbox',
      parse: literal(WEBHOOK_ENDPOINT_STATUSES),
    },
  } as const;
}
