import type { Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';

/** Makes slot rows 0…count-1 of a partner's endpoint where they are missing. */
export async function ensureSendSlots(db: Db, partnerId: string, count: number): Promise<void> {
  await db
    .insertInto('endpoint_send_slots')
    .values(Array.from({ length: count }, (_, slot) => ({ partner_id: partnerId, slot, held_by: null, held_until: null })))
    .onConflict((oc) => oc.columns(['partner_id', 'slot']).doNothing())
    .execute();
}

/**
 * Takes one free slot below `count` of a partner's endpoint for `holder` until `until`, in one
 * statement; returns its number, or null when all are held. A slot is free when nobody holds it or
 * its hold ended before `now`. On Postgres the slot is picked with `FOR UPDATE SKIP LOCKED`, so
 * processes taking at once get different slots without waiting; SQLite has one writer at a time.
 */
export async function takeSendSlot(
  db: Db,
  take: { partnerId: string; count: number; holder: string; now: string; until: string },
): Promise<number | null> {
  let pick = db
    .selectFrom('endpoint_send_slots')
    .select('slot')
    .where('partner_id', '=', take.partnerId)
    .where('slot', '<', take.count)
    .where((eb) => eb.or([eb('held_by', 'is', null), eb('held_until', '<=', take.now)]))
    .orderBy('slot')
    .limit(1);
  if (dialectOf(db) === 'postgres') pick = pick.forUpdate().skipLocked();
  const row = await db
    .with(
      (cte) => cte('picked').materialized(),
      () => pick,
    )
    .updateTable('endpoint_send_slots')
    .set({ held_by: take.holder, held_until: take.until })
    .where('partner_id', '=', take.partnerId)
    .where('slot', 'in', (eb) => eb.selectFrom('picked').select('picked.slot'))
    .where((eb) => eb.or([eb('held_by', 'is', null), eb('held_until', '<=', take.now)]))
    .returning('slot')
    .executeTakeFirst();
  return row ? Number(row.slot) : null;
}

/** Extends a hold, if `holder` still holds the slot; false when it lost it (another took it once it lapsed). */
export async function extendSendSlot(db: Db, partnerId: string, slot: number, holder: string, until: string): Promise<boolean> {
  const res = await db
    .updateTable('endpoint_send_slots')
    .set({ held_until: until })
    .where('partner_id', '=', partnerId)
    .where('slot', '=', slot)
    .where('held_by', '=', holder)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Gives back the slots of a partner's endpoint that these holders still hold. One parameter per
 * holder: a run holds at most its per-endpoint concurrency of slots, far below either store's limit.
 */
export async function releaseSendSlots(db: Db, partnerId: string, holders: readonly string[]): Promise<void> {
  if (holders.length === 0) return;
  await db
    .updateTable('endpoint_send_slots')
    .set({ held_by: null, held_until: null })
    .where('partner_id', '=', partnerId)
    .where('held_by', 'in', holders)
    .execute();
}

/** Gives back every slot still held by a run (holders `<runId>#<n>`), as its lease is taken over. */
export async function releaseSendSlotsOf(db: Db, runId: string): Promise<number> {
  const res = await db
    .updateTable('endpoint_send_slots')
    .set({ held_by: null, held_until: null })
    .where((eb) => eb(eb.fn('substr', ['held_by', eb.val(1), eb.val(runId.length + 1)]), '=', `${runId}#`))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
