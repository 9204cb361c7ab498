import { AppError } from '../../domain/app-error.ts';
import { INSTANT_WORDS, parseInstant } from '../../domain/calendar.ts';
import { wireTime, type Clock } from '../../domain/clock.ts';
import { issues, validationError, type ValidationIssue } from '../../domain/validation-issues.ts';
import { SECRET_MAX, SECRET_MIN } from '../../domain/webhook-registration.ts';
import { signingSecret, type WebhookEndpoint } from '../../domain/webhooks.ts';
import type { Db } from '../../store/database.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import { findEndpointByPartner, updateEndpoint } from '../../store/repositories/webhook-endpoints-repo.ts';
import { keyInForce, publicKeyOf } from '../../domain/ed25519-keys.ts';
import { generateSigningKey, generateWebhookSecret } from './endpoints.ts';

/** How long a rotation waits by default before deliveries switch: a day for the partner to install the next secret. */
export const DEFAULT_ROTATION_DELAY_MS = 24 * 60 * 60_000;

export interface RotationDeps {
  clock: Clock;
  randomBytes?: (size: number) => Buffer;
}

/** A stored rotation, as the admin API and CLI print it (the only time the next secret is shown). */
export function toRotationWire(endpoint: WebhookEndpoint) {
  return {
    endpoint_id: endpoint.endpointId,
    partner_id: endpoint.partnerId,
    next_secret: endpoint.nextSecret!,
    next_public_key: endpoint.nextSigningKey ? publicKeyOf(endpoint.nextSigningKey) : null,
    activate_at: wireTime(endpoint.nextSecretFrom!),
  };
}

function readBody(body: unknown, now: Date): { secret?: string; activateAt: Date } {
  const found: ValidationIssue[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError([issues.valueError(['body'], body, 'the body should be an object')], 'secret rotation');
  }
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (key !== 'secret' && key !== 'activate_at') found.push(issues.extraForbidden(['body', key], fields[key]));
  let secret: string | undefined;
  if (fields.secret !== undefined && fields.secret !== null) {
    const given = fields.secret;
    if (typeof given !== 'string') found.push(issues.stringType(['body', 'secret'], '[redacted]'));
    else if (given.length < SECRET_MIN) found.push(issues.stringTooShort(['body', 'secret'], '[redacted]', SECRET_MIN));
    else if (given.length > SECRET_MAX) found.push(issues.stringTooLong(['body', 'secret'], '[redacted]', SECRET_MAX));
    else if (!/^[!-~]+$/.test(given)) found.push(issues.stringPatternMismatch(['body', 'secret'], '[redacted]', '^[!-~]+$'));
    else secret = given;
  }
  let activateAt = new Date(now.getTime() + DEFAULT_ROTATION_DELAY_MS);
  if (fields.activate_at !== undefined && fields.activate_at !== null) {
    const activation = fields.activate_at;
    const at = typeof activation === 'string' ? parseInstant(activation) : null;
    if (!at) {
      found.push(issues.valueError(['body', 'activate_at'], activation, `activate_at should be ${INSTANT_WORDS} on a real calendar day`));
    } else if (at.getTime() < now.getTime()) {
      found.push(issues.valueError(['body', 'activate_at'], activation, 'activate_at should not be in the past'));
    } else activateAt = at;
  }
  if (found.length > 0) throw validationError(found, 'secret rotation');
  return { secret, activateAt };
}

/**
 * Stores the next signing secret of the partner's endpoint (given, or generated: `whsec_` + 32
 * random bytes) and from when deliveries sign with it (default: in 24 hours). Until then they sign
 * with the current secret; the partner accepts both meanwhile. A rotation whose time has come is
 * folded into the current secret first, so a second rotation replaces only one still pending.
 * An endpoint with Ed25519 signatures gets its next key pair too, switching at the same time; until
 * then deliveries carry a `v1a` signature with each key.
 * Throws partner_not_found, not_found (no endpoint) or invalid_input (422 issues).
 */
export async function rotateWebhookSecret(db: Db, partnerId: string, body: unknown, deps: RotationDeps): Promise<WebhookEndpoint> {
  const now = deps.clock();
  const { secret, activateAt } = readBody(body, now);
  if (!(await findPartner(db, partnerId))) throw new AppError('partner_not_found', `no partner with id "${partnerId}"`);
  const existing = await findEndpointByPartner(db, partnerId);
  if (!existing) throw new AppError('not_found', `partner ${partnerId} has no webhook endpoint; register one first`);
  const key = keyInForce(existing, now);
  const rotated: WebhookEndpoint = {
    ...existing,
    secret: signingSecret(existing, now),
    signingKey: key,
    nextSigningKey: key ? generateSigningKey() : null,
    nextSecret: secret ?? generateWebhookSecret(deps.randomBytes),
    nextSecretFrom: activateAt.toISOString(),
    updatedAt: now.toISOString(),
  };
  await updateEndpoint(db, rotated);
  return rotated;
}

/** A rotation still to come at `now`, for listings (never the secret). */
export function pendingRotation(endpoint: WebhookEndpoint, now: Date): string | null {
  return endpoint.nextSecret && endpoint.nextSecretFrom && Date.parse(endpoint.nextSecretFrom) > now.getTime()
    ? wireTime(endpoint.nextSecretFrom)
    : null;
}
