import { sql, type InferResult } from 'kysely';
import type { Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';
import { CHANGE_HORIZON, NO_LIMIT } from './changes-repo.ts';

/** The newest change-capture position in the store, and where sync's reader stands (it prunes what it read). */
export interface ChangeMarks {
  maxSeq: number;
  maxTx: number;
  /** The `sync.cursor` setting, as stored (JSON), or null. */
  syncCursor: string | null;
  /**
   * Every transaction below it had finished when the marks were read (changeHorizon; no bound on
   * SQLite). Read in the same statement, so from the same snapshot as the marks.
   */
  horizon: number;
}

function changeMarksQuery(db: Db, postgres: boolean) {
  return db.selectNoFrom((eb) => [
    eb
      .selectFrom('changes')
      .select((e) => e.fn.max('seq').as('s'))
      .as('max_seq'),
    eb
      .selectFrom('changes')
      .select((e) => e.fn.max('tx').as('t'))
      .as('max_tx'),
    eb.selectFrom('settings').select('value').where('name', '=', 'sync.cursor').as('sync_cursor'),
    (postgres ? CHANGE_HORIZON : sql<string>`null`).as('horizon'),
  ]);
}

export type ChangeMarksRow = InferResult<ReturnType<typeof changeMarksQuery>>[number];

/**
 * Reads the marks with their query compiled once, when the reader is made: the API reads them for
 * nearly every call (src/services/read-cache/coalesced-data-version.ts), and building the query each
 * time cost more CPU than running it.
 */
export function changeMarksReader(db: Db): () => Promise<ChangeMarks> {
  // Compiled at the first read, not when the reader is made: making an app touches no store.
  let query: { postgres: boolean; compiled: ReturnType<ReturnType<typeof changeMarksQuery>['compile']> } | undefined;
  return async () => {
    if (!query) {
      const postgres = dialectOf(db) === 'postgres';
      query = { postgres, compiled: changeMarksQuery(db, postgres).compile() };
    }
    return marksOf((await db.executeQuery(query.compiled)).rows[0]!, query.postgres);
  };
}

/** One round trip: the largest `seq` and `tx` left in `changes`, the sync cursor saved with each prune, and the horizon. */
export function changeMarks(db: Db): Promise<ChangeMarks> {
  return changeMarksReader(db)();
}

/** The marks a row of the marks query holds (`postgres`: the row has a horizon). */
export function marksOf(row: ChangeMarksRow, postgres: boolean): ChangeMarks {
  return {
    maxSeq: Number(row.max_seq ?? 0),
    maxTx: Number(row.max_tx ?? 0),
    syncCursor: row.sync_cursor ?? null,
    horizon: postgres ? Number(row.horizon) : NO_LIMIT,
  };
}
