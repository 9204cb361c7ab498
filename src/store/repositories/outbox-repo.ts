import type { Insertable, Selectable } from 'kysely';
import type { OutboxStatus } from '../../domain/vocabulary.ts';
import type { OutboxEvent } from '../../domain/webhooks.ts';
import type { Db, OutboxEventsTable } from '../database.ts';

/** A due event as the delivery run plans it: the event and its partner's active endpoint. */
export interface DueEvent {
  eventId: string;
  partnerId: string;
  eventType: string;
  attempts: number;
  nextAttemptAt: string;
  endpointId: string;
  url: string;
}

export function toOutboxEvent(row: Selectable<OutboxEventsTable>): OutboxEvent {
  return {
    eventId: row.event_id, partnerId: row.partner_id, eventType: row.event_type, crewUniqueId: row.crew_unique_id,
    occurredAt: row.occurred_at, body: row.body, status: row.status, attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at, lockedBy: row.locked_by, lockedUntil: row.locked_until,
    createdAt: row.created_at, deliveredAt: row.delivered_at,
  };
}

/** Writes new events; the sync diff calls this inside its transaction. */
export async function insertOutboxEvents(db: Db, rows: readonly Insertable<OutboxEventsTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('outbox_events').values(rows.slice(i, i + 500)).execute();
}

export async function findOutboxEvent(db: Db, eventId: string): Promise<OutboxEvent | undefined> {
  const row = await db.selectFrom('outbox_events').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return row && toOutboxEvent(row);
}

/**
 * One page of events due at `now` whose partner has an active endpoint and which no live lease
 * holds, oldest due first; `after` is the last (nextAttemptAt, eventId) of the previous page.
 */
export async function listDueEvents(
  db: Db, now: string, limit: number, after?: { nextAttemptAt: string; eventId: string },
): Promise<DueEvent[]> {
  let q = db.selectFrom('outbox_events as o')
    .innerJoin('webhook_endpoints as e', 'e.partner_id', 'o.partner_id')
    .select(['o.event_id', 'o.partner_id', 'o.event_type', 'o.attempts', 'o.next_attempt_at', 'e.endpoint_id', 'e.url'])
    .where('o.status', '=', 'pending').where('o.next_attempt_at', '<=', now).where('e.status', '=', 'active')
    .where((eb) => eb.or([eb('o.locked_until', 'is', null), eb('o.locked_until', '<=', now)]));
  if (after) {
    q = q.where((eb) => eb.or([
      eb('o.next_attempt_at', '>', after.nextAttemptAt),
      eb.and([eb('o.next_attempt_at', '=', after.nextAttemptAt), eb('o.event_id', '>', after.eventId)]),
    ]));
  }
  const rows = await q.orderBy('o.next_attempt_at').orderBy('o.event_id').limit(limit).execute();
  return rows.map((r) => ({
    eventId: r.event_id, partnerId: r.partner_id, eventType: r.event_type, attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at, endpointId: r.endpoint_id, url: r.url,
  }));
}

/** Pending events of partners without an active endpoint: kept, not attempted. */
export async function countHeldEvents(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('outbox_events as o')
    .leftJoin('webhook_endpoints as e', (j) => j.onRef('e.partner_id', '=', 'o.partner_id').on('e.status', '=', 'active'))
    .select(['o.partner_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('o.status', '=', 'pending').where('e.endpoint_id', 'is', null)
    .groupBy('o.partner_id').execute();
  return new Map(rows.map((r) => [r.partner_id, Number(r.n)]));
}

/**
 * Claims a due event for one run: a single UPDATE … WHERE that only one of several racing runs
 * can win. Returns the claimed event (fresh attempt count and body), or undefined.
 */
export async function claimEvent(db: Db, eventId: string, runId: string, now: string, lockedUntil: string): Promise<OutboxEvent | undefined> {
  const row = await db.updateTable('outbox_events')
    .set({ locked_by: runId, locked_until: lockedUntil })
    .where('event_id', '=', eventId).where('status', '=', 'pending').where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returningAll().executeTakeFirst();
  return row && toOutboxEvent(row);
}

/** What one attempt changes on its event; applied only while `runId` holds the claim. */
export type EventProgress =
  | { status: 'delivered'; attempts: number; at: string }
  | { status: 'pending'; attempts: number; nextAttemptAt: string }
  | { status: 'dead'; attempts: number };

/** Records an attempt's effect on the event; false when the run no longer holds the claim. */
export async function updateClaimedEvent(db: Db, eventId: string, runId: string, p: EventProgress): Promise<boolean> {
  const set = p.status === 'delivered'
    ? { status: 'delivered' as const, attempts: p.attempts, delivered_at: p.at, locked_by: null, locked_until: null }
    : p.status === 'dead'
      ? { status: 'dead' as const, attempts: p.attempts, locked_by: null, locked_until: null }
      : { attempts: p.attempts, next_attempt_at: p.nextAttemptAt };
  const res = await db.updateTable('outbox_events').set(set)
    .where('event_id', '=', eventId).where('locked_by', '=', runId).executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

/** Lets go of a claim (the event stays pending for a later run). */
export async function releaseEvent(db: Db, eventId: string, runId: string): Promise<void> {
  await db.updateTable('outbox_events').set({ locked_by: null, locked_until: null })
    .where('event_id', '=', eventId).where('locked_by', '=', runId).execute();
}

/** Puts dead events back for delivery: same event_id, attempt count 0, due at `now`. */
export async function requeueDeadEvents(db: Db, eventIds: readonly string[], now: string): Promise<number> {
  let n = 0;
  for (let i = 0; i < eventIds.length; i += 500) {
    const res = await db.updateTable('outbox_events')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, locked_by: null, locked_until: null })
      .where('event_id', 'in', eventIds.slice(i, i + 500)).where('status', '=', 'dead').executeTakeFirst();
    n += Number(res.numUpdatedRows);
  }
  return n;
}
