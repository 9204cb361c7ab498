import type { Selectable } from 'kysely';
import type { WebhookEndpointStatus } from '../../domain/vocabulary.ts';
import type { WebhookEndpoint } from '../../domain/webhooks.ts';
import type { Db, WebhookEndpointsTable } from '../database.ts';
import { fromJson, toJson } from './json.ts';

export function toWebhookEndpoint(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  return {
    endpointId: row.endpoint_id,
    partnerId: row.partner_id,
    url: row.url,
    subscribedEvents: fromJson<string[]>(row.subscribed_events) ?? [],
    secret: row.secret,
    nextSecret: row.next_secret,
    nextSecretFrom: row.next_secret_from,
    signingKey: row.signing_key,
    nextSigningKey: row.next_signing_key,
    // Absent when none was chosen (an endpoint registered before lead times were): the default applies.
    ...(row.notice_lead_days !== null ? { noticeLeadDays: fromJson<number[]>(row.notice_lead_days) } : {}),
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    health: {
      consecutiveFailures: Number(row.consecutive_failures),
      failingSince: row.failing_since,
      lastSuccessAt: row.last_success_at,
      disabledReason: row.disabled_reason,
      disabledAt: row.disabled_at,
    },
  };
}

export async function findEndpointByPartner(db: Db, partnerId: string): Promise<WebhookEndpoint | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('partner_id', '=', partnerId).executeTakeFirst();
  return row && toWebhookEndpoint(row);
}

export async function listEndpoints(db: Db, options: { status?: WebhookEndpointStatus } = {}): Promise<WebhookEndpoint[]> {
  let query = db.selectFrom('webhook_endpoints').selectAll().orderBy('partner_id');
  if (options.status) query = query.where('status', '=', options.status);
  return (await query.execute()).map(toWebhookEndpoint);
}

/** Inserts the partner's endpoint; false when the partner already has one (a racing registration). */
export async function insertEndpoint(db: Db, endpoint: WebhookEndpoint): Promise<boolean> {
  const res = await db
    .insertInto('webhook_endpoints')
    .values({
      endpoint_id: endpoint.endpointId,
      partner_id: endpoint.partnerId,
      url: endpoint.url,
      subscribed_events: toJson(endpoint.subscribedEvents),
      secret: endpoint.secret,
      next_secret: endpoint.nextSecret ?? null,
      next_secret_from: endpoint.nextSecretFrom ?? null,
      signing_key: endpoint.signingKey ?? null,
      next_signing_key: endpoint.nextSigningKey ?? null,
      notice_lead_days: endpoint.noticeLeadDays ? toJson(endpoint.noticeLeadDays) : null,
      status: endpoint.status,
      created_at: endpoint.createdAt,
      updated_at: endpoint.updatedAt,
    })
    .onConflict((oc) => oc.column('partner_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/**
 * Replaces URL, events, secrets, Ed25519 keys and status of the partner's endpoint; its id and creation time stay.
 * Re-enabling a disabled endpoint clears why it was disabled and its failures, so it gets the whole
 * period again before it can be disabled anew.
 */
export async function updateEndpoint(db: Db, endpoint: WebhookEndpoint): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => {
      const wasDisabled = eb('status', '=', 'disabled');
      const reenabled = <T extends 'consecutive_failures' | 'failing_since' | 'disabled_reason' | 'disabled_at'>(
        column: T,
        cleared: 0 | null,
      ) =>
        endpoint.status === 'active'
          ? eb
              .case()
              .when(wasDisabled)
              .then(cleared as never)
              .else(eb.ref(column))
              .end()
          : eb.ref(column);
      return {
        url: endpoint.url,
        subscribed_events: toJson(endpoint.subscribedEvents),
        secret: endpoint.secret,
        next_secret: endpoint.nextSecret ?? null,
        next_secret_from: endpoint.nextSecretFrom ?? null,
        signing_key: endpoint.signingKey ?? null,
        next_signing_key: endpoint.nextSigningKey ?? null,
        notice_lead_days: endpoint.noticeLeadDays ? toJson(endpoint.noticeLeadDays) : null,
        status: endpoint.status,
        updated_at: endpoint.updatedAt,
        consecutive_failures: reenabled('consecutive_failures', 0),
        failing_since: reenabled('failing_since', null),
        disabled_reason: reenabled('disabled_reason', null),
        disabled_at: reenabled('disabled_at', null),
      };
    })
    .where('partner_id', '=', endpoint.partnerId)
    .execute();
}
