import type { Db } from '../database.ts';

/** The newest change-capture position in the store, and where sync's reader stands (it prunes what it read). */
export interface ChangeMarks {
  maxSeq: number;
  maxTx: number;
  /** The `sync.cursor` setting, as stored (JSON), or null. */
  syncCursor: string | null;
}

/** One round trip: the largest `seq` and `tx` left in `changes`, and the sync cursor saved with each prune. */
export async function changeMarks(db: Db): Promise<ChangeMarks> {
  const row = await db.selectNoFrom((eb) => [
    eb.selectFrom('changes').select((e) => e.fn.max('seq').as('s')).as('max_seq'),
    eb.selectFrom('changes').select((e) => e.fn.max('tx').as('t')).as('max_tx'),
    eb.selectFrom('settings').select('value').where('name', '=', 'sync.cursor').as('sync_cursor'),
  ]).executeTakeFirstOrThrow();
  return { maxSeq: Number(row.max_seq ?? 0), maxTx: Number(row.max_tx ?? 0), syncCursor: (row.sync_cursor as string | null) ?? null };
}
