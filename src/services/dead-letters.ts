import type { Kysely } from 'kysely';
import { AppError } from '../domain/app-error.ts';
import type { Clock } from '../domain/clock.ts';
import { effectiveScopes } from '../domain/scopes.ts';
import type { SuppressReason } from '../domain/vocabulary.ts';
import type { Database, Db } from '../store/database.ts';
import { findPartner } from '../store/repositories/partners-repo.ts';
import { findEndpointByPartner } from '../store/repositories/webhook-endpoints-repo.ts';
import { judgeEvents } from './visibility/event-visibility.ts';
import { listDeadLetters, markReplayed, type DeadLetter, type DeadLetterFilter } from '../store/repositories/dead-letters-repo.ts';
import { findOutboxEvents, requeueDeadEvents, suppressDeadEvents } from '../store/repositories/outbox-repo.ts';
import { EVENT_TYPES, isEventType } from '../domain/vocabulary.ts';
import { checkedRange } from './time-range.ts';

/** Filters as an operator types them (CLI options, query parameters). */
export interface DeadLetterQuery {
  partnerId?: string;
  eventType?: string;
  since?: string;
  until?: string;
}

/** Checks an operator's filters and turns them into the store's; throws invalid_input. */
export function toDeadLetterFilter(query: DeadLetterQuery): DeadLetterFilter {
  if (query.eventType !== undefined && !isEventType(query.eventType)) {
    throw new AppError('invalid_input', `unknown event type "${query.eventType}" (one of ${EVENT_TYPES.join(', ')})`);
  }
  const { since, until } = checkedRange(query.since, query.until);
  return { partnerId: query.partnerId, eventType: query.eventType, since, until };
}

/** A dead letter a replay left alone: the access rule refuses its event now (or did before). */
export interface ReplaySkip {
  eventId: string;
  partnerId: string;
  reason: SuppressReason;
}

/** What a replay did: the dead letters put back for delivery, and those it skipped, with why. */
export interface ReplayResult {
  replayed: DeadLetter[];
  skipped: ReplaySkip[];
}

/** The access rule's verdict on each dead letter's event, one query per partner (src/services/visibility/event-visibility.ts). */
async function verdicts(db: Db, letters: readonly DeadLetter[]): Promise<Map<string, SuppressReason | null>> {
  const out = new Map<string, SuppressReason | null>();
  const events = await findOutboxEvents(
    db,
    letters.map((d) => d.eventId),
  );
  for (const partnerId of new Set(events.map((e) => e.partnerId))) {
    const mine = events.filter((e) => e.partnerId === partnerId);
    for (const e of mine) if (e.status === 'suppressed') out.set(e.eventId, e.suppressedReason ?? 'fleet');
    const partner = await findPartner(db, partnerId);
    const endpoint = await findEndpointByPartner(db, partnerId);
    const open = mine.filter((e) => e.status !== 'suppressed');
    if (!partner) {
      for (const e of open) out.set(e.eventId, 'fleet');
      continue;
    }
    const audience = { partner, mode: 'live' as const, scopes: new Set(effectiveScopes(partner)) };
    for (const [id, v] of await judgeEvents(db, audience, open, endpoint?.subscribedEvents)) out.set(id, v);
  }
  return out;
}

/**
 * Puts matching dead-lettered events back for delivery, in one transaction: same event_id and
 * body, attempt count 0, due now; the dead letter keeps its history and gets replayed_at. Dead
 * letters already replayed are left alone. An event the access rule refuses now (fleet, scope,
 * consent, subscription) is not put back: it ends `suppressed` with the reason and is reported
 * as skipped, and no later replay sends it.
 */
export async function replayDeadLetters(db: Kysely<Database>, query: DeadLetterQuery, clock: Clock): Promise<ReplayResult> {
  const filter = { ...toDeadLetterFilter(query), unreplayedOnly: true };
  const now = clock().toISOString();
  return db.transaction().execute(async (trx) => {
    const letters = await listDeadLetters(trx, filter);
    const verdict = await verdicts(trx, letters);
    const skipped = letters.flatMap((letter) => {
      const reason = verdict.get(letter.eventId) ?? null;
      return reason ? [{ eventId: letter.eventId, partnerId: letter.partnerId, reason }] : [];
    });
    const replay = letters.filter((letter) => (verdict.get(letter.eventId) ?? null) === null);
    await suppressDeadEvents(trx, skipped, now);
    const ids = replay.map((letter) => letter.eventId);
    await requeueDeadEvents(trx, ids, now);
    await markReplayed(trx, ids, now);
    return { replayed: replay.map((letter) => ({ ...letter, replayedAt: now })), skipped };
  });
}

/** "3 consent, 1 fleet": how many a replay skipped, per reason. */
export function describeSkips(skipped: readonly ReplaySkip[]): string {
  const counts = new Map<string, number>();
  for (const s of skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason}`).join(', ');
}

/** Dead letters matching the filters, oldest first. */
export async function findDeadLetters(db: Kysely<Database>, query: DeadLetterQuery & { limit?: number }): Promise<DeadLetter[]> {
  return listDeadLetters(db, { ...toDeadLetterFilter(query), limit: query.limit });
}
