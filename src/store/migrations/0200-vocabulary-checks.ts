import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-of.ts';

/*
 * CHECK constraints for the vocabulary columns the first release left unchecked. The values are a
 * frozen copy of src/domain/vocabulary.ts as it stood; test/store/vocabulary-constraints.test.ts
 * holds the two equal. SQLite cannot add a CHECK to an existing table without rebuilding it, so
 * there the same rule is a pair of triggers that abort the insert or update.
 */
const CHECKS: readonly { table: string; column: string; values: readonly string[] }[] = [
  { table: 'documents', column: 'review_status', values: ['pending', 'approved', 'flagged'] },
  { table: 'documents', column: 'verification_status', values: ['unverified', 'pending', 'verified'] },
  { table: 'crew', column: 'verification_status', values: ['unverified', 'pending', 'verified'] },
  { table: 'crew', column: 'background_check_status', values: ['not_started', 'pending', 'clear', 'review', 'adverse', 'expired'] },
  { table: 'vessels', column: 'trading_area', values: ['unlimited', 'near_coastal'] },
  { table: 'delivery_attempts', column: 'outcome', values: ['delivered', 'retry', 'failed_permanent', 'dead'] },
];

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(db: Kysely<any>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  for (const { table, column, values } of CHECKS) {
    const name = `${table}_${column}_check`;
    if (pg) {
      await sql.raw(`alter table ${table} add constraint ${name} check (${column} in (${list(values)}))`).execute(db);
      continue;
    }
    for (const [when, event] of [
      ['insert', 'insert'],
      ['update', `update of ${column}`],
    ] as const) {
      await sql
        .raw(
          `create trigger ${name}_${when} before ${event} on ${table}
        when new.${column} not in (${list(values)})
        begin select raise(abort, 'CHECK constraint failed: ${table}.${column}'); end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  for (const { table, column } of CHECKS) {
    const name = `${table}_${column}_check`;
    if (pg) await sql.raw(`alter table ${table} drop constraint if exists ${name}`).execute(db);
    else for (const when of ['insert', 'update']) await sql.raw(`drop trigger if exists ${name}_${when}`).execute(db);
  }
}
