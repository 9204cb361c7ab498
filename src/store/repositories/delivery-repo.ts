import type { Selectable } from 'kysely';
import type { DeliveryAttemptsTable, Db } from '../database.ts';

export type AttemptOutcome = DeliveryAttemptsTable['outcome'];

/** One stored delivery attempt. */
export interface DeliveryAttempt {
  attemptId: number;
  eventId: string;
  attemptNo: number;
  attemptedAt: string;
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  outcome: AttemptOutcome;
}

/** An attempt with the event it belongs to, for the operator's history view. */
export interface DeliveryAttemptView extends DeliveryAttempt {
  partnerId: string;
  eventType: string;
  /** When the event's next attempt is due; null once it is delivered or dead. */
  nextAttemptAt: string | null;
}

export function toDeliveryAttempt(row: Selectable<DeliveryAttemptsTable>): DeliveryAttempt {
  return {
    attemptId: Number(row.attempt_id),
    eventId: row.event_id,
    attemptNo: row.attempt_no,
    attemptedAt: row.attempted_at,
    url: row.url,
    statusCode: row.status_code,
    latencyMs: row.latency_ms,
    error: row.error,
    responseBody: row.response_body,
    outcome: row.outcome,
  };
}

export async function insertDeliveryAttempts(db: Db, list: readonly Omit<DeliveryAttempt, 'attemptId'>[]): Promise<void> {
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto('delivery_attempts')
      .values(
        list.slice(i, i + 500).map((attempt) => ({
          event_id: attempt.eventId,
          attempt_no: attempt.attemptNo,
          attempted_at: attempt.attemptedAt,
          url: attempt.url,
          status_code: attempt.statusCode,
          latency_ms: attempt.latencyMs,
          error: attempt.error,
          response_body: attempt.responseBody,
          outcome: attempt.outcome,
        })),
      )
      .execute();
  }
}

/** Attempts, newest first, optionally of one partner or one event. */
export async function listDeliveryAttempts(
  db: Db,
  filter: { partnerId?: string; eventId?: string; limit?: number } = {},
): Promise<DeliveryAttemptView[]> {
  let query = db
    .selectFrom('delivery_attempts as a')
    .innerJoin('outbox_events as o', 'o.event_id', 'a.event_id')
    .selectAll('a')
    .select(['o.partner_id', 'o.event_type', 'o.status as event_status', 'o.next_attempt_at']);
  if (filter.partnerId !== undefined) query = query.where('o.partner_id', '=', filter.partnerId);
  if (filter.eventId !== undefined) query = query.where('a.event_id', '=', filter.eventId);
  const rows = await query
    .orderBy('a.attempted_at', 'desc')
    .orderBy('a.attempt_id', 'desc')
    .limit(filter.limit ?? 100)
    .execute();
  return rows.map((row) => ({
    ...toDeliveryAttempt(row),
    partnerId: row.partner_id,
    eventType: row.event_type,
    nextAttemptAt: row.event_status === 'pending' ? row.next_attempt_at : null,
  }));
}

/** An event's attempts in the order they were made. */
export async function attemptsOfEvent(db: Db, eventId: string): Promise<DeliveryAttempt[]> {
  const rows = await db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('attempt_no')
    .orderBy('attempt_id')
    .execute();
  return rows.map(toDeliveryAttempt);
}
