import { eventTypesVisibleWith, deliveryState } from '../../domain/event-access.ts';
import { EVENT_TYPES, type EventDeliveryState, type EventType } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { listFeedEvents, type FeedEvent, type FeedKey } from '../../store/repositories/event-feed-repo.ts';
import { signToken, verifyToken } from '../read-api/signed-token.ts';
import { judgeEvents } from '../visibility/event-visibility.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';

/** The filters of a feed; a cursor is bound to them, to the partner and to the key's mode. */
export interface FeedFilters {
  type?: EventType;
  crewUniqueId?: string;
}

export interface FeedCursor {
  filters: FeedFilters;
  after: FeedKey;
}

export function encodeEventsCursor(key: Buffer, ctx: PartnerContext, cursor: FeedCursor): string {
  return signToken(key, {
    v: 1,
    k: 'events',
    p: ctx.partner.partnerId,
    m: ctx.mode,
    t: cursor.filters.type ?? null,
    c: cursor.filters.crewUniqueId ?? null,
    a: [cursor.after.createdAt, cursor.after.eventId],
  });
}

/** The cursor, when this service signed it for this partner and mode; null otherwise. */
export function decodeEventsCursor(key: Buffer, token: string, ctx: PartnerContext): FeedCursor | null {
  const payload = verifyToken(key, token);
  if (!payload || payload.v !== 1 || payload.k !== 'events' || payload.p !== ctx.partner.partnerId || payload.m !== ctx.mode) return null;
  const [createdAt, eventId, ...rest] = Array.isArray(payload.a) ? (payload.a as unknown[]) : [];
  if (typeof createdAt !== 'string' || typeof eventId !== 'string' || rest.length > 0) return null;
  if (payload.t !== null && !(EVENT_TYPES as readonly unknown[]).includes(payload.t)) return null;
  if (payload.c !== null && typeof payload.c !== 'string') return null;
  const filters: FeedFilters = {};
  if (payload.t !== null) filters.type = payload.t as EventType;
  if (payload.c !== null) filters.crewUniqueId = payload.c;
  return { filters, after: { createdAt, eventId } };
}

/** One item of the feed: the envelope exactly as delivered, and where its delivery stands. */
export interface FeedItemWire {
  event: { event_type: EventType; data: Record<string, unknown> } & Record<string, unknown>;
  delivery_status: EventDeliveryState;
}

export interface FeedPageWire {
  items: FeedItemWire[];
  /** Absent on the last page. */
  next_cursor?: string;
}

export interface FeedPageQuery {
  filters: FeedFilters;
  after: FeedKey | null;
  limit: number;
  /** Events created before this instant are past the retention and not listed. */
  since: string;
}

// Events hidden since they were sent (fleet, scope or consent gone) are skipped; a page scans at most
// this many batches before it ends early with a cursor, so a long hidden stretch stays cheap.
const MAX_BATCHES = 5;

/**
 * A page of the events created for the partner, oldest first (keyset on created_at, event_id).
 * An event is listed only while it passes the access rule now (src/services/visibility/event-visibility.ts):
 * the crew member is on the partner's fleet, the partner holds its scope and the consent allows it. `svc sync` diffs the live fleet only, so every stored event is live data: a test key's
 * feed is empty.
 */
export async function listEventsPage(db: Db, ctx: PartnerContext, cursorKey: Buffer, query: FeedPageQuery): Promise<FeedPageWire> {
  const types = eventTypesVisibleWith(ctx.scopes, query.filters.type ? [query.filters.type] : EVENT_TYPES);
  if (ctx.mode === 'test' || types.length === 0) return { items: [] };
  const shown: Array<{ row: FeedEvent; item: FeedItemWire }> = [];
  let after = query.after;
  let scanned: FeedEvent | undefined;
  let exhausted = false;
  for (let batch = 0; batch < MAX_BATCHES && shown.length <= query.limit && !exhausted; batch++) {
    const rows = await listFeedEvents(db, {
      partnerId: ctx.partner.partnerId,
      types,
      crewUniqueId: query.filters.crewUniqueId,
      since: query.since,
      after,
      limit: query.limit + 1,
    });
    exhausted = rows.length <= query.limit;
    const verdicts = await judgeEvents(db, ctx, rows);
    for (const row of rows) {
      scanned = row;
      if (verdicts.get(row.eventId) !== null) continue;
      const event = JSON.parse(row.body) as FeedItemWire['event'];
      shown.push({ row, item: { event, delivery_status: deliveryState(row.status, row.attempts) } });
      if (shown.length > query.limit) break;
    }
    if (scanned) after = { createdAt: scanned.createdAt, eventId: scanned.eventId };
  }
  const page = shown.slice(0, query.limit);
  const out: FeedPageWire = { items: page.map((s) => s.item) };
  // More to come: a visible event beyond this page, or rows not yet scanned.
  const last = shown.length > query.limit ? page.at(-1)?.row : exhausted ? undefined : scanned;
  if (last)
    out.next_cursor = encodeEventsCursor(cursorKey, ctx, {
      filters: query.filters,
      after: { createdAt: last.createdAt, eventId: last.eventId },
    });
  return out;
}
