import type { Insertable } from 'kysely';
import type { Database, Db } from '../database.ts';

/** Rows per statement, so a batch stays under SQLite's and Postgres's bound-parameter limits. */
function chunkSize(columns: number): number {
  return Math.max(1, Math.floor(30_000 / Math.max(1, columns)));
}

/**
 * Inserts rows, updating every non-key column of rows whose key already exists, in batches.
 * `keep` names columns an update must not touch (creation times).
 */
export async function upsertRows<T extends keyof Database & string>(
  db: Db,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  keys: readonly (keyof Database[T] & string)[],
  keep: readonly (keyof Database[T] & string)[] = [],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object);
  const updates = columns.filter((c) => !keys.includes(c as never) && !keep.includes(c as never));
  const size = chunkSize(columns.length);
  for (let start = 0; start < rows.length; start += size) {
    const batch = rows.slice(start, start + size);
    await (db as any)
      .insertInto(table)
      .values(batch)
      .onConflict((oc: any) => {
        const target = oc.columns(keys);
        return updates.length === 0
          ? target.doNothing()
          : target.doUpdateSet(Object.fromEntries(updates.map((c) => [c, (eb: any) => eb.ref(`excluded.${c}`)])));
      })
      .execute();
  }
}
