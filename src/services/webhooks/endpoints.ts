import { randomBytes as cryptoRandomBytes, generateKeyPairSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../domain/app-error.ts';
import { wireTime, type Clock } from '../../domain/clock.ts';
import { issues, validationError, type ValidationIssue } from '../../domain/validation-issues.ts';
import { keyInForce, publicKeyOf, toSecretKey } from '../../domain/ed25519-keys.ts';
import { noticeLeadDaysOf, type WebhookEndpoint } from '../../domain/webhooks.ts';
import type { Database } from '../../store/database.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import { findEndpointByPartner, insertEndpoint, listEndpoints, updateEndpoint } from '../../store/repositories/webhook-endpoints-repo.ts';
import { destinationProblem, systemResolver, type Resolver } from './destination.ts';
import { validateRegistration } from './validate-registration.ts';

/** What registering an endpoint needs besides the store. */
export interface RegistrationDeps {
  clock: Clock;
  /** config.allowInsecureWebhooks: loopback/private destinations and http to loopback. */
  allowInsecure: boolean;
  resolve?: Resolver;
  randomBytes?: (size: number) => Buffer;
}

/**
 * `created` is true for a new endpoint (HTTP 201), false for an existing one (200); `changed` is
 * false when the registration repeated what the endpoint already had (nothing was written).
 */
export interface RegistrationResult {
  created: boolean;
  changed: boolean;
  endpoint: WebhookEndpoint;
}

/** Whether a registration would leave `existing` as it is: same URL, events, lead times, secret, Ed25519 key, status, no pending rotation. */
function sameRegistration(
  existing: WebhookEndpoint,
  wanted: Pick<WebhookEndpoint, 'url' | 'subscribedEvents' | 'secret' | 'status'> & { ed25519: boolean; noticeLeadDays: number[] },
): boolean {
  const events = (list: readonly string[]) => [...list].sort().join(',');
  const leads = (days: readonly number[]) => days.join(',');
  return (
    existing.url === wanted.url &&
    events(existing.subscribedEvents) === events(wanted.subscribedEvents) &&
    leads(noticeLeadDaysOf(existing)) === leads(wanted.noticeLeadDays) &&
    existing.secret === wanted.secret &&
    existing.status === wanted.status &&
    Boolean(existing.signingKey) === wanted.ed25519 &&
    existing.nextSecret === null &&
    !existing.nextSigningKey
  );
}

/** The endpoint as the admin API and CLI show it (snake_case, secret included). */
export function toEndpointWire(endpoint: WebhookEndpoint) {
  return {
    endpoint_id: endpoint.endpointId,
    partner_id: endpoint.partnerId,
    url: endpoint.url,
    subscribed_events: endpoint.subscribedEvents,
    notice_lead_days: noticeLeadDaysOf(endpoint),
    secret: endpoint.secret,
    public_key: endpoint.signingKey ? publicKeyOf(endpoint.signingKey) : null,
    status: endpoint.status,
    created_at: wireTime(endpoint.createdAt),
    updated_at: wireTime(endpoint.updatedAt),
    health: toHealthWire(endpoint),
  };
}

const time = (at: string | null | undefined): string | null => (at ? wireTime(at) : null);

/** The endpoint's health as the admin API and CLI show it (docs/webhooks.md, "Endpoint health"). */
export function toHealthWire(endpoint: WebhookEndpoint) {
  const health = endpoint.health;
  return {
    consecutive_failures: health?.consecutiveFailures ?? 0,
    failing_since: time(health?.failingSince),
    last_success_at: time(health?.lastSuccessAt),
    disabled_reason: health?.disabledReason ?? null,
    disabled_at: time(health?.disabledAt),
  };
}

/**
 * `whsec_` + 32 random bytes, standard base64 (docs/decisions.md §7): one secret for both the
 * contract's signature and the Standard Webhooks one.
 */
export function generateWebhookSecret(randomBytes: (size: number) => Buffer = cryptoRandomBytes): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A new Ed25519 secret key (`whsk_`), from a key pair made by node:crypto. */
export function generateSigningKey(): string {
  return toSecretKey(generateKeyPairSync('ed25519').privateKey);
}

async function checkResolvedUrl(url: string, deps: RegistrationDeps): Promise<ValidationIssue | undefined> {
  const loc = ['body', 'url'];
  try {
    const problem = await destinationProblem(new URL(url), { allowInsecure: deps.allowInsecure }, deps.resolve ?? systemResolver);
    return problem ? issues.valueError(loc, url, problem) : undefined;
  } catch (err) {
    return issues.valueError(loc, url, `url host cannot be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/**
 * Registers the partner's webhook endpoint, or rotates the one it has (one per partner): the
 * body replaces URL, events, secret and status. An absent secret is generated, also on rotation,
 * so a caller keeping the current secret sends it. `ed25519` true keeps the endpoint's Ed25519 key
 * (the one in force) or generates one; false drops it. A registration repeating what the endpoint has
 * writes nothing (`changed` false; a re-enabling one does write: its status differs). Throws partner_not_found, or invalid_input
 * with `extra.issues` (422) for a bad body or a refused destination.
 */
export async function registerWebhookEndpoint(
  db: Kysely<Database>,
  partnerId: string,
  body: unknown,
  deps: RegistrationDeps,
): Promise<RegistrationResult> {
  if (!(await findPartner(db, partnerId))) throw new AppError('partner_not_found', `no partner with id "${partnerId}"`);
  const check = validateRegistration(body, { allowInsecure: deps.allowInsecure });
  if (!check.ok) throw validationError(check.issues, 'webhook endpoint registration');
  const refused = await checkResolvedUrl(check.value.url, deps);
  if (refused) throw validationError([refused], 'webhook endpoint registration');

  const at = deps.clock();
  const now = at.toISOString();
  const secret = check.value.secret ?? generateWebhookSecret(deps.randomBytes);
  return db.transaction().execute(async (trx) => {
    const existing = await findEndpointByPartner(trx, partnerId);
    if (existing && sameRegistration(existing, { ...check.value, secret })) return { created: false, changed: false, endpoint: existing };
    const endpoint: WebhookEndpoint = {
      endpointId: existing?.endpointId ?? `whe_${(deps.randomBytes ?? cryptoRandomBytes)(8).toString('hex')}`,
      partnerId,
      url: check.value.url,
      subscribedEvents: check.value.subscribedEvents,
      noticeLeadDays: check.value.noticeLeadDays,
      secret,
      // A registration replaces the secret: a pending rotation is cancelled.
      nextSecret: null,
      nextSecretFrom: null,
      signingKey: check.value.ed25519 ? ((existing && keyInForce(existing, at)) ?? generateSigningKey()) : null,
      nextSigningKey: null,
      status: check.value.status,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    // Read back, so the answer shows the health as stored (re-enabling clears it).
    if (!existing && (await insertEndpoint(trx, endpoint)))
      return { created: true, changed: true, endpoint: (await findEndpointByPartner(trx, partnerId))! };
    await updateEndpoint(trx, endpoint);
    return { created: false, changed: true, endpoint: (await findEndpointByPartner(trx, partnerId))! };
  });
}

/** Every partner's endpoint, for the operator (the CLI prints them without their secrets). */
export function listWebhookEndpoints(db: Kysely<Database>): Promise<WebhookEndpoint[]> {
  return listEndpoints(db);
}
