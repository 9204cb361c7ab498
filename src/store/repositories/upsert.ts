import { sql, type Insertable, type OnConflictTables, type OnConflictUpdateDatabase, type UpdateObject } from 'kysely';
import type { Database, Db } from '../database.ts';

/** Rows per statement, so a batch stays under SQLite's and Postgres's bound-parameter limits. */
function chunkSize(columns: number): number {
  return Math.max(1, Math.floor(30_000 / Math.max(1, columns)));
}

/**
 * Inserts rows, updating every non-key column of rows whose key already exists, in batches.
 * `keep` names columns an update must not touch (creation times).
 */
export async function upsertRows<T extends keyof Database>(
  db: Db,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  keys: readonly (keyof Database[T] & string)[],
  keep: readonly (keyof Database[T] & string)[] = [],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object) as (keyof Database[T] & string)[];
  const updates = columns.filter((c) => !keys.includes(c) && !keep.includes(c));
  const size = chunkSize(columns.length);
  for (let start = 0; start < rows.length; start += size) {
    const batch = rows.slice(start, start + size);
    await db
      .insertInto(table)
      .values(batch)
      .onConflict((oc) => {
        const target = oc.columns(keys);
        return updates.length === 0 ? target.doNothing() : target.doUpdateSet(fromExcluded<T>(updates));
      })
      .execute();
  }
}

/**
 * `SET c = excluded.c` for each column: the inserted row's values replace the stored ones. The
 * columns are known only when the rows arrive, so the object is typed as the update it builds.
 */
function fromExcluded<T extends keyof Database>(
  columns: readonly string[],
): UpdateObject<OnConflictUpdateDatabase<Database, T>, OnConflictTables<T>, OnConflictTables<T>> {
  return Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)])) as UpdateObject<
    OnConflictUpdateDatabase<Database, T>,
    OnConflictTables<T>,
    OnConflictTables<T>
  >;
}
