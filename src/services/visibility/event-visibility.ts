import { accessVerdict } from '../../domain/event-access.ts';
import { fleetOf, type Partner } from '../../domain/partner.ts';
import type { Scope } from '../../domain/scopes.ts';
import { isEventType, type KeyMode, type SuppressReason } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { crewStandings } from '../../store/repositories/crew-standing-repo.ts';

/** An event about to leave the service: its stored envelope and whom it is about. */
export interface EventToJudge {
  eventId: string;
  eventType: string;
  crewUniqueId: string | null;
  /** The stored envelope (JSON), whose `data` the rule reads (a document's class). */
  body: string;
  /** The scope its payload was recorded to need when it was built (OutboxEvent.payloadScope). */
  payloadScope: Scope | null;
}

/** Who the events would reach: the partner, the mode whose fleet counts, and its effective scopes. */
export interface Audience {
  partner: Partner;
  mode: KeyMode;
  scopes: ReadonlySet<Scope>;
}

/**
 * Applies the access rule (src/domain/event-access.ts) to events of one partner as the store holds
 * things now, in one query for the whole list: null for an event that may leave, else the reason
 * it may not. Every door asks this: each delivery batch, each replay, each page of the events feed.
 */
export async function judgeEvents(
  db: Db,
  audience: Audience,
  events: readonly EventToJudge[],
  subscribed?: readonly string[],
): Promise<Map<string, SuppressReason | null>> {
  const out = new Map<string, SuppressReason | null>();
  if (events.length === 0) return out;
  const crewIds = events.flatMap((e) => (e.crewUniqueId ? [e.crewUniqueId] : []));
  const standings = await crewStandings(db, fleetOf(audience.partner, audience.mode), audience.partner.partnerId, crewIds);
  for (const event of events) {
    if (!isEventType(event.eventType)) throw new Error(`event ${event.eventId} has an unknown type "${event.eventType}"`);
    const data = (JSON.parse(event.body) as { data?: Record<string, unknown> }).data ?? {};
    const standing = event.crewUniqueId ? standings.get(event.crewUniqueId) : undefined;
    const verdict = accessVerdict({ type: event.eventType, data, payloadScope: event.payloadScope }, audience.scopes, standing, subscribed);
    out.set(event.eventId, verdict);
  }
  return out;
}
