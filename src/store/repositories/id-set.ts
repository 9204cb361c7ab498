import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from '../dialect-of.ts';
import type { Db } from '../database.ts';

/**
 * A set of ids as one bound parameter, for `where(column, 'in', idSet(db, ids))`: the ids go as
 * one JSON array that the store takes apart (SQLite's json_each, Postgres's
 * jsonb_array_elements_text). Kysely's `in` with an array binds one parameter per id, and a set
 * that grows with the data (a fleet's vessels, a page's documents) then passes each store's limit
 * on a statement's parameters: 32,766 on SQLite, 65,535 on Postgres
 * (test/sync/large-fleet.test.ts). An empty set matches nothing. Its one column is `value`, so it
 * also serves as rows: `select …, value from ${idSet(db, ids)} as ids`.
 */
export function idSet(db: Db, ids: Iterable<string>): RawBuilder<string> {
  const json = JSON.stringify([...ids]);
  return dialectOf(db) === 'postgres'
    ? sql<string>`(select jsonb_array_elements_text(cast(${json} as jsonb)) as value)`
    : sql<string>`(select value from json_each(${json}))`;
}

/**
 * `column` is one of `ids`, the set bound as one parameter as in idSet. On Postgres the set goes
 * in as an array (`= any(array(…))`), which the planner matches against an index's key: a filter
 * on two such sets (partners and a page of crew) is then one scan of the composite key, where two
 * `in (subquery)` semi-joins, each guessed at 100 rows, made it hash the whole table (477 ms
 * against 16 ms for 2 partners and 2,000 of 1,000,000 snapshots).
 */
export function inIdSet(db: Db, column: string, ids: Iterable<string>): RawBuilder<SqlBool> {
  const json = JSON.stringify([...ids]);
  return dialectOf(db) === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = any(array(select jsonb_array_elements_text(cast(${json} as jsonb))))`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${json}))`;
}
