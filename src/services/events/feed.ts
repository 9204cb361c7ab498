import { eventTypesVisibleWith, deliveryState } from '../../domain/event-access.ts';
import { EVENT_TYPES, type EventDeliveryState, type EventType } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { listFeedEvents, sequenceAtFeedKey, type FeedEvent, type FeedKey } from '../../store/repositories/event-feed-repo.ts';
import { signToken, verifyToken } from '../read-api/signed-token.ts';
import { judgeEvents } from '../visibility/event-visibility.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';

/** The filters of a feed; a cursor is bound to them, to the partner and to the key's mode. */
export interface FeedFilters {
  type?: EventType;
  crewUniqueId?: string;
}

/**
 * Where a cursor continues: after a sequence number, or (cursors signed before events were
 * numbered, version 1) after a (created_at, event_id) key, which resolveCursorSequence turns into one.
 */
export interface FeedCursor {
  filters: FeedFilters;
  after: { sequence: number } | { key: FeedKey };
}

export function encodeEventsCursor(key: Buffer, ctx: PartnerContext, filters: FeedFilters, afterSequence: number): string {
  return signToken(key, {
    v: 2,
    k: 'events',
    p: ctx.partner.partnerId,
    m: ctx.mode,
    t: filters.type ?? null,
    c: filters.crewUniqueId ?? null,
    s: afterSequence,
  });
}

function cursorPosition(payload: Record<string, unknown>): FeedCursor['after'] | null {
  if (payload.v === 2) return Number.isSafeInteger(payload.s) && (payload.s as number) >= 0 ? { sequence: payload.s as number } : null;
  const [createdAt, eventId, ...rest] = Array.isArray(payload.a) ? (payload.a as unknown[]) : [];
  if (payload.v !== 1 || typeof createdAt !== 'string' || typeof eventId !== 'string' || rest.length > 0) return null;
  return { key: { createdAt, eventId } };
}

/** The cursor, when this service signed it for this partner and mode; null otherwise. */
export function decodeEventsCursor(key: Buffer, token: string, ctx: PartnerContext): FeedCursor | null {
  const payload = verifyToken(key, token);
  if (!payload || payload.k !== 'events' || payload.p !== ctx.partner.partnerId || payload.m !== ctx.mode) return null;
  const after = cursorPosition(payload);
  if (!after) return null;
  if (payload.t !== null && !(EVENT_TYPES as readonly unknown[]).includes(payload.t)) return null;
  if (payload.c !== null && typeof payload.c !== 'string') return null;
  const filters: FeedFilters = {};
  if (payload.t !== null) filters.type = payload.t as EventType;
  if (payload.c !== null) filters.crewUniqueId = payload.c;
  return { filters, after };
}

/** The sequence number a cursor continues after. */
export async function resolveCursorSequence(db: Db, ctx: PartnerContext, cursor: FeedCursor): Promise<number> {
  return 'sequence' in cursor.after ? cursor.after.sequence : sequenceAtFeedKey(db, ctx.partner.partnerId, cursor.after.key);
}

/**
 * One item of the feed: the envelope exactly as delivered, where its delivery stands, and its
 * sequence number and subject (also in the envelope, except in envelopes delivered before events
 * carried them).
 */
export interface FeedItemWire {
  event: { event_type: EventType; data: Record<string, unknown> } & Record<string, unknown>;
  delivery_status: EventDeliveryState;
  sequence: number;
  subject: string;
}

export interface FeedPageWire {
  items: FeedItemWire[];
  /** Absent on the last page. */
  next_cursor?: string;
}

export interface FeedPageQuery {
  filters: FeedFilters;
  /** Only events numbered above this (0: from the first). */
  afterSequence: number;
  limit: number;
  /** Events created before this instant are past the retention and not listed. */
  since: string;
}

// Events hidden since they were sent (fleet, scope or consent gone) are skipped; a page scans at most
// this many batches before it ends early with a cursor, so a long hidden stretch stays cheap.
const MAX_BATCHES = 5;

/**
 * A page of the events created for the partner, in sequence order (keyset on the sequence).
 * An event is listed only while it passes the access rule now (src/services/visibility/event-visibility.ts):
 * the crew member is on the partner's fleet, the partner holds its scope and the consent allows it. `svc sync` diffs the live fleet only, so every stored event is live data: a test key's
 * feed is empty.
 */
export async function listEventsPage(db: Db, ctx: PartnerContext, cursorKey: Buffer, query: FeedPageQuery): Promise<FeedPageWire> {
  const types = eventTypesVisibleWith(ctx.scopes, query.filters.type ? [query.filters.type] : EVENT_TYPES);
  if (ctx.mode === 'test' || types.length === 0) return { items: [] };
  const shown: Array<{ row: FeedEvent; item: FeedItemWire }> = [];
  let after = query.afterSequence;
  let scanned: FeedEvent | undefined;
  let exhausted = false;
  for (let batch = 0; batch < MAX_BATCHES && shown.length <= query.limit && !exhausted; batch++) {
    const rows = await listFeedEvents(db, {
      partnerId: ctx.partner.partnerId,
      types,
      crewUniqueId: query.filters.crewUniqueId,
      since: query.since,
      afterSequence: after,
      limit: query.limit + 1,
    });
    exhausted = rows.length <= query.limit;
    const verdicts = await judgeEvents(db, ctx, rows);
    for (const row of rows) {
      scanned = row;
      if (verdicts.get(row.eventId) !== null) continue;
      const event = JSON.parse(row.body) as FeedItemWire['event'];
      shown.push({
        row,
        item: { event, delivery_status: deliveryState(row.status, row.attempts), sequence: row.sequence, subject: row.subject },
      });
      if (shown.length > query.limit) break;
    }
    if (scanned) after = scanned.sequence;
  }
  const page = shown.slice(0, query.limit);
  const out: FeedPageWire = { items: page.map((s) => s.item) };
  // More to come: a visible event beyond this page, or rows not yet scanned.
  const last = shown.length > query.limit ? page.at(-1)?.row : exhausted ? undefined : scanned;
  if (last) out.next_cursor = encodeEventsCursor(cursorKey, ctx, query.filters, last.sequence);
  return out;
}
