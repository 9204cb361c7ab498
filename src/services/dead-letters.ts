import type { Kysely } from 'kysely';
import { AppError } from '../domain/app-error.ts';
import type { Clock } from '../domain/clock.ts';
import type { Database } from '../store/database.ts';
import { listDeadLetters, markReplayed, type DeadLetter, type DeadLetterFilter } from '../store/repositories/dead-letters-repo.ts';
import { requeueDeadEvents } from '../store/repositories/outbox-repo.ts';
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
export function toDeadLetterFilter(q: DeadLetterQuery): DeadLetterFilter {
  if (q.eventType !== undefined && !isEventType(q.eventType)) {
    throw new AppError('invalid_input', `unknown event type "${q.eventType}" (one of ${EVENT_TYPES.join(', ')})`);
  }
  const { since, until } = checkedRange(q.since, q.until);
  return { partnerId: q.partnerId, eventType: q.eventType, since, until };
}

/**
 * Puts matching dead-lettered events back for delivery, in one transaction: same event_id and
 * body, attempt count 0, due now; the dead letter keeps its history and gets replayed_at. Dead
 * letters already replayed are left alone. Returns those replayed.
 */
export async function replayDeadLetters(db: Kysely<Database>, q: DeadLetterQuery, clock: Clock): Promise<DeadLetter[]> {
  const filter = { ...toDeadLetterFilter(q), unreplayedOnly: true };
  const now = clock().toISOString();
  return db.transaction().execute(async (trx) => {
    const letters = await listDeadLetters(trx, filter);
    const ids = letters.map((d) => d.eventId);
    await requeueDeadEvents(trx, ids, now);
    await markReplayed(trx, ids, now);
    return letters.map((d) => ({ ...d, replayedAt: now }));
  });
}

/** Dead letters matching the filters, oldest first. */
export async function findDeadLetters(db: Kysely<Database>, q: DeadLetterQuery & { limit?: number }): Promise<DeadLetter[]> {
  return listDeadLetters(db, { ...toDeadLetterFilter(q), limit: q.limit });
}
