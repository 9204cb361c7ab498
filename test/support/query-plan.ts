import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/database.ts';
import type { DialectLabel } from './stores.ts';

/** A statement as Kysely's `log` option saw it sent. */
export interface SentStatement {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * The store's plan for `statement`, as one text. On Postgres sequential scans are switched off for
 * the question, so that the plan says whether an index can serve the statement at all, whatever a
 * small test table's costs would make the planner prefer.
 */
export function queryPlan(db: Kysely<Database>, dialect: DialectLabel, statement: SentStatement): Promise<string> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
    const prefix = dialect === 'postgres' ? 'explain ' : 'explain query plan ';
    const rows = await trx.executeQuery<Record<string, string>>(CompiledQuery.raw(prefix + statement.sql, [...statement.parameters]));
    return rows.rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n');
  });
}
