import type { Db } from '../database.ts';
import type { Scope } from '../../domain/scopes.ts';
import type { OutboxStatus } from '../../domain/vocabulary.ts';

/** An outbox event as the events feed reads it. */
export interface FeedEvent {
  eventId: string;
  eventType: string;
  crewUniqueId: string | null;
  createdAt: string;
  body: string;
  status: OutboxStatus;
  attempts: number;
  /** The scope its payload was recorded to need (OutboxEvent.payloadScope). */
  payloadScope: Scope | null;
}

/** Where a feed page continues: strictly after this (created_at, event_id). */
export interface FeedKey {
  createdAt: string;
  eventId: string;
}

export interface FeedQuery {
  partnerId: string;
  /** Event types to list; none lists nothing. */
  types: readonly string[];
  crewUniqueId?: string;
  /** Only events created at or after this instant (the retention). */
  since: string;
  after: FeedKey | null;
  limit: number;
}

/** One keyset page of a partner's events, oldest first. */
export async function listFeedEvents(db: Db, request: FeedQuery): Promise<FeedEvent[]> {
  if (request.types.length === 0) return [];
  let query = db
    .selectFrom('outbox_events')
    .select(['event_id', 'event_type', 'crew_unique_id', 'created_at', 'body', 'status', 'attempts', 'payload_scope'])
    .where('partner_id', '=', request.partnerId)
    .where('event_type', 'in', request.types)
    .where('created_at', '>=', request.since);
  if (request.crewUniqueId !== undefined) query = query.where('crew_unique_id', '=', request.crewUniqueId);
  const after = request.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('event_id', '>', after.eventId)])]),
    );
  }
  const rows = await query.orderBy('created_at').orderBy('event_id').limit(request.limit).execute();
  return rows.map((row) => ({
    eventId: row.event_id,
    eventType: row.event_type,
    crewUniqueId: row.crew_unique_id,
    createdAt: row.created_at,
    body: row.body,
    status: row.status,
    attempts: row.attempts,
    payloadScope: row.payload_scope ?? null,
  }));
}

/** Up to `batch` ids of delivered or dead events created before `before`, oldest first. */
export async function prunableEventIds(db: Db, before: string, batch: number): Promise<string[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select('event_id')
    .where('created_at', '<', before)
    .where('status', 'in', ['delivered', 'dead'])
    .orderBy('created_at')
    .limit(batch)
    .execute();
  return rows.map((r) => r.event_id);
}

/** Deletes events with their delivery attempts and dead letters (call inside a transaction). */
export async function deleteEvents(db: Db, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db.deleteFrom('delivery_attempts').where('event_id', 'in', eventIds).execute();
  await db.deleteFrom('dead_letters').where('event_id', 'in', eventIds).execute();
  await db.deleteFrom('outbox_events').where('event_id', 'in', eventIds).execute();
}
