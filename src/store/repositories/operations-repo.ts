import type { Db } from '../database.ts';

/** The outbox as monitoring sees it at `now`. */
export interface OutboxHealth {
  /** Events not yet delivered or dead, due or not. */
  pending: number;
  /** Pending events whose next attempt is due. */
  due: number;
  /** When the longest-waiting due event became due (its next_attempt_at); null when none is due. */
  oldestDueSince: string | null;
  /** When the oldest pending event was created, due or not, its endpoint active or not; null when none is pending. */
  oldestPendingSince: string | null;
}

export async function outboxHealth(db: Db, now: string): Promise<OutboxHealth> {
  const row = await db
    .selectFrom('outbox_events')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('pending'),
      eb.fn.sum<number | string | null>(eb.case().when('next_attempt_at', '<=', now).then(1).else(0).end()).as('due'),
      eb.fn.min<string | null>(eb.case().when('next_attempt_at', '<=', now).then(eb.ref('next_attempt_at')).else(null).end()).as('oldest'),
      eb.fn.min<string | null>('created_at').as('oldest_created'),
    ])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return {
    pending: Number(row.pending),
    due: Number(row.due ?? 0),
    oldestDueSince: row.oldest ?? null,
    oldestPendingSince: row.oldest_created ?? null,
  };
}

/** Dead letters not replayed since they died: what waits for an operator. */
export async function countUnreplayedDeadLetters(db: Db): Promise<number> {
  const row = await db
    .selectFrom('dead_letters')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('replayed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Endpoints an operator should look at. */
export interface EndpointHealth {
  disabled: number;
  /** Active endpoints whose latest delivery attempt failed (their stored health counts failures). */
  failing: number;
}

/** Counts disabled endpoints, and active ones failing by their stored health (docs/webhooks.md, "Endpoint health"). */
export async function endpointHealth(db: Db): Promise<EndpointHealth> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => [
      eb.fn.sum<number | string | null>(eb.case().when('status', '=', 'disabled').then(1).else(0).end()).as('disabled'),
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when(eb.and([eb('status', '=', 'active'), eb('consecutive_failures', '>', 0)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('failing'),
    ])
    .executeTakeFirstOrThrow();
  return { disabled: Number(row.disabled ?? 0), failing: Number(row.failing ?? 0) };
}

/** Partners whose deliveries are not getting through, by their endpoint's stored health. */
export interface UnhealthyEndpoints {
  /** Active endpoints whose latest delivery attempt failed. */
  failing: string[];
  /** Disabled endpoints: their events wait until an operator re-enables them. */
  disabled: string[];
}

export async function unhealthyEndpoints(db: Db): Promise<UnhealthyEndpoints> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['partner_id', 'status'])
    .where((eb) => eb.or([eb('status', '=', 'disabled'), eb('consecutive_failures', '>', 0)]))
    .orderBy('partner_id')
    .execute();
  return {
    failing: rows.filter((r) => r.status === 'active').map((r) => r.partner_id),
    disabled: rows.filter((r) => r.status === 'disabled').map((r) => r.partner_id),
  };
}
