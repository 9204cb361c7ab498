import type { Selectable } from 'kysely';
import type { DeadLettersTable, Db } from '../database.ts';

/** An event that delivery gave up on, and whether an operator has replayed it since. */
export interface DeadLetter {
  eventId: string;
  partnerId: string;
  eventType: string;
  reason: string;
  deadAt: string;
  replayedAt: string | null;
}

/** Which dead letters an operator means; `since` and `until` bound dead_at, both inclusive (ISO-8601 UTC). */
export interface DeadLetterFilter {
  partnerId?: string;
  eventType?: string;
  since?: string;
  until?: string;
  /** Only those not replayed since they died (the default for replay). */
  unreplayedOnly?: boolean;
  limit?: number;
}

export function toDeadLetter(row: Selectable<DeadLettersTable>): DeadLetter {
  return {
    eventId: row.event_id,
    partnerId: row.partner_id,
    eventType: row.event_type,
    reason: row.reason,
    deadAt: row.dead_at,
    replayedAt: row.replayed_at,
  };
}

/** Records a dead letter; an event that dies again after a replay gets a fresh row state. */
export async function upsertDeadLetter(db: Db, letter: Omit<DeadLetter, 'replayedAt'>): Promise<void> {
  await db
    .insertInto('dead_letters')
    .values({
      event_id: letter.eventId,
      partner_id: letter.partnerId,
      event_type: letter.eventType,
      reason: letter.reason,
      dead_at: letter.deadAt,
      replayed_at: null,
    })
    .onConflict((oc) => oc.column('event_id').doUpdateSet({ reason: letter.reason, dead_at: letter.deadAt, replayed_at: null }))
    .execute();
}

export async function listDeadLetters(db: Db, filter: DeadLetterFilter = {}): Promise<DeadLetter[]> {
  let query = db.selectFrom('dead_letters').selectAll();
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  if (filter.eventType !== undefined) query = query.where('event_type', '=', filter.eventType);
  if (filter.since !== undefined) query = query.where('dead_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('dead_at', '<=', filter.until);
  if (filter.unreplayedOnly) query = query.where('replayed_at', 'is', null);
  query = query.orderBy('dead_at').orderBy('event_id');
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  return (await query.execute()).map(toDeadLetter);
}

export async function markReplayed(db: Db, eventIds: readonly string[], at: string): Promise<void> {
  for (let i = 0; i < eventIds.length; i += 500) {
    await db
      .updateTable('dead_letters')
      .set({ replayed_at: at })
      .where('event_id', 'in', eventIds.slice(i, i + 500))
      .execute();
  }
}
