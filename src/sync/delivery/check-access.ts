import type { SuppressReason } from '../../domain/vocabulary.ts';
import type { OutboxEvent, WebhookEndpoint } from '../../domain/webhooks.ts';
import { judgeEvents, type Audience } from '../../services/visibility/event-visibility.ts';
import type { Db } from '../../store/database.ts';
import { suppressClaimedEvents } from '../../store/repositories/outbox-repo.ts';

/** What the access check decided for each event it was given. */
export interface AccessChecked {
  /** May be sent now. */
  allowed: OutboxEvent[];
  /** Ended `suppressed` in the store, with the reason. */
  suppressed: Array<{ event: OutboxEvent; reason: SuppressReason }>;
  /** Refused, but this run no longer held the claim: left to whoever holds it. */
  lost: OutboxEvent[];
}

/**
 * Stage 2, check access: applies the access rule (src/services/visibility/event-visibility.ts) to
 * claimed events as the store holds things now, in one query for the whole list, and ends each
 * refused event as `suppressed` with its reason (one statement per reason). Nothing refused is
 * sent, dead-lettered or counted as an attempt.
 */
export async function checkAccess(
  db: Db, runId: string, at: Date, events: readonly OutboxEvent[], endpoint: WebhookEndpoint, audience: Audience,
): Promise<AccessChecked> {
  const verdicts = await judgeEvents(db, audience, events, endpoint.subscribedEvents);
  const refused = events.flatMap((event) => {
    const reason = verdicts.get(event.eventId) ?? null;
    return reason ? [{ event, reason }] : [];
  });
  const done = refused.length === 0 ? new Set<string>()
    : await suppressClaimedEvents(db, refused.map((r) => ({ eventId: r.event.eventId, reason: r.reason })), runId, at.toISOString());
  return {
    allowed: events.filter((e) => verdicts.get(e.eventId) === null),
    suppressed: refused.filter((r) => done.has(r.event.eventId)),
    lost: refused.filter((r) => !done.has(r.event.eventId)).map((r) => r.event),
  };
}
