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

export function encodeEventsCursor(key: Buffer, ctx: PartnerContext, c: FeedCursor): string {
  return signToken(key, {
    v: 1, k: 'events', p: ctx.partner.partnerId, m: ctx.mode, t: c.filters.type ?? null, c: c.filters.crewUniqueId ?? null,
    a: [c.after.createdAt, c.after.eventId],
  });
}

/** The cursor, when this service signed it for this partner and mode; null otherwise. */
export function decodeEventsCursor(key: Buffer, token: string, ctx: PartnerContext): FeedCursor | null {
  const p = verifyToken(key, token);
  if (!p || p.v !== 1 || p.k !== 'events' || p.p !== ctx.partner.partnerId || p.m !== ctx.mode) return null;
  const [createdAt, eventId, ...rest] = Array.isArray(p.a) ? (p.a as unknown[]) : [];
  if (typeof createdAt !== 'string' || typeof eventId !== 'string' || rest.length > 0) return null;
  if (p.t !== null && !(EVENT_TYPES as readonly unknown[]).includes(p.t)) return null;
  if (p.c !== null && typeof p.c !== 'string') return null;
  const filters: FeedFilters = {};
  if (p.t !== null) filters.type = p.t as EventType;
  if (p.c !== null) filters.crewUniqueId = p.c as string;
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
export async function listEventsPage(db: Db, ctx: PartnerContext, cursorKey: Buffer, q: FeedPageQuery): Promise<FeedPageWire> {
  const types = eventTypesVisibleWith(ctx.scopes, q.filters.type ? [q.filters.type] : EVENT_TYPES);
  if (ctx.mode === 'test' || types.length === 0) return { items: [] };
  const shown: Array<{ row: FeedEvent; item: FeedItemWire }> = [];
  let after = q.after;
  let scanned: FeedEvent | undefined;
  let exhausted = false;
  for (let batch = 0; batch < MAX_BATCHES && shown.length <= q.limit && !exhausted; batch++) {
    const rows = await listFeedEvents(db, {
      partnerId: ctx.partner.partnerId, types, crewUniqueId: q.filters.crewUniqueId, since: q.since, after, limit: q.limit + 1,
    });
    exhausted = rows.length <= q.limit;
    const verdicts = await judgeEvents(db, ctx, rows);
    for (const row of rows) {
      scanned = row;
      if (verdicts.get(row.eventId) !== null) continue;
      const event = JSON.parse(row.body) as FeedItemWire['event'];
      shown.push({ row, item: { event, delivery_status: deliveryState(row.status, row.attempts) } });
      if (shown.length > q.limit) break;
    }
    if (scanned) after = { createdAt: scanned.createdAt, eventId: scanned.eventId };
  }
  const page = shown.slice(0, q.limit);
  const out: FeedPageWire = { items: page.map((s) => s.item) };
  // More to come: a visible event beyond this page, or rows not yet scanned.
  const last = shown.length > q.limit ? page.at(-1)?.row : exhausted ? undefined : scanned;
  if (last) out.next_cursor = encodeEventsCursor(cursorKey, ctx, { filters: q.filters, after: { createdAt: last.createdAt, eventId: last.eventId } });
  return out;
}
