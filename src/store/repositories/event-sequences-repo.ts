import type { Db } from '../database.ts';

/**
 * Takes the next `count` sequence numbers of a partner's events and returns the first; call it in
 * the transaction that writes the events. The counter row is locked until that transaction ends,
 * so a concurrent writer for the same partner waits and takes the numbers after: sequence order
 * is commit order, and a reader that saw number n never later finds an event below n committed.
 */
export async function takeSequences(db: Db, partnerId: string, count: number): Promise<number> {
  const row = await db
    .insertInto('partner_event_sequences')
    .values({ partner_id: partnerId, last_sequence: count })
    .onConflict((oc) =>
      oc.column('partner_id').doUpdateSet((eb) => ({ last_sequence: eb('partner_event_sequences.last_sequence', '+', count) })),
    )
    .returning('last_sequence')
    .executeTakeFirstOrThrow();
  return Number(row.last_sequence) - count + 1;
}
