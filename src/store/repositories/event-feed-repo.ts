import type { Db } from '../database.ts';
import type { Scope } from '../../domain/scopes.ts';
import type { OutboxStatus } from '../../domain/vocabulary.ts';
import { idSet } from './id-set.ts';

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
  sequence: number;
  subject: string;
}

/** Where a feed page of the first cursors continued: strictly after this (created_at, event_id). */
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
  /** Only events numbered above this. */
  afterSequence: number;
  limit: number;
}

/** One keyset page of a partner's events in sequence order. */
export async function listFeedEvents(db: Db, request: FeedQuery): Promise<FeedEvent[]> {
  if (request.types.length === 0) return [];
  let query = db
    .selectFrom('outbox_events')
    .select([
      'event_id',
      'event_type',
      'crew_unique_id',
      'created_at',
      'body',
      'status',
      'attempts',
      'payload_scope',
      'sequence',
      'subject',
    ])
    .where('partner_id', '=', request.partnerId)
    .where('sequence', '>', request.afterSequence)
    .where('event_type', 'in', request.types)
    .where('created_at', '>=', request.since);
  if (request.crewUniqueId !== undefined) query = query.where('crew_unique_id', '=', request.crewUniqueId);
  const rows = await query.orderBy('sequence').limit(request.limit).execute();
  return rows.map((row) => ({
    eventId: row.event_id,
    eventType: row.event_type,
    crewUniqueId: row.crew_unique_id,
    createdAt: row.created_at,
    body: row.body,
    status: row.status,
    attempts: row.attempts,
    payloadScope: row.payload_scope ?? null,
    sequence: Number(row.sequence),
    subject: row.subject ?? '',
  }));
}

/**
 * The sequence a cursor of the first kind, at (created_at, event_id), stands at: the highest of the
 * partner's events at or before that key (events were numbered in that order; 0 when none is).
 */
export async function sequenceAtFeedKey(db: Db, partnerId: string, key: FeedKey): Promise<number> {
  const row = await db
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.max('sequence').as('sequence'))
    .where('partner_id', '=', partnerId)
    .where((eb) =>
      eb.or([eb('created_at', '<', key.createdAt), eb.and([eb('created_at', '=', key.createdAt), eb('event_id', '<=', key.eventId)])]),
    )
    .executeTakeFirst();
  return Number(row?.sequence ?? 0);
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
  const ids = idSet(db, eventIds);
  await db.deleteFrom('delivery_attempts').where('event_id', 'in', ids).execute();
  await db.deleteFrom('dead_letters').where('event_id', 'in', ids).execute();
  await db.deleteFrom('outbox_events').where('event_id', 'in', ids).execute();
}
