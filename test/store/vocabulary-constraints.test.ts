import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import {
  API_KEY_KINDS,
  API_KEY_STATUSES,
  ASSIGNMENT_STATUSES,
  BACKGROUND_CHECK_STATUSES,
  CONSENT_CATEGORIES,
  DELIVERY_OUTCOMES,
  OUTBOX_STATUSES,
  PARTNER_KINDS,
  PARTNER_TIERS,
  PROCESSING_STATES,
  REVIEW_STATUSES,
  TRADING_AREAS,
  VERIFICATION_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
} from '../../src/domain/vocabulary.ts';
import { describeEachStore, type DialectLabel } from '../support/stores.ts';

/** Every store column whose values come from a vocabulary, with that vocabulary. */
const COLUMNS: readonly [table: string, column: string, vocabulary: readonly string[]][] = [
  ['partners', 'kind', PARTNER_KINDS],
  ['partners', 'tier', PARTNER_TIERS],
  ['vessels', 'trading_area', TRADING_AREAS],
  ['crew', 'verification_status', VERIFICATION_STATUSES],
  ['crew', 'background_check_status', BACKGROUND_CHECK_STATUSES],
  ['assignments', 'status', ASSIGNMENT_STATUSES],
  ['consents', 'category', CONSENT_CATEGORIES],
  ['documents', 'verification_status', VERIFICATION_STATUSES],
  ['documents', 'review_status', REVIEW_STATUSES],
  ['documents', 'processing_state', PROCESSING_STATES],
  ['api_keys', 'kind', API_KEY_KINDS],
  ['api_keys', 'status', API_KEY_STATUSES],
  ['webhook_endpoints', 'status', WEBHOOK_ENDPOINT_STATUSES],
  ['outbox_events', 'status', OUTBOX_STATUSES],
  ['delivery_attempts', 'outcome', DELIVERY_OUTCOMES],
];

const literals = (text: string) => [...text.matchAll(/'([^']*)'/g)].map((m) => m[1]!);

/**
 * The values the store accepts in `table.column`, read from its schema: on SQLite the column's
 * CHECK in the table definition or the `not in (…)` of a trigger on the table; on Postgres the
 * table's CHECK constraint on the column. Null when nothing constrains the column.
 */
async function checkedValues(db: Kysely<any>, dialect: DialectLabel, table: string, column: string): Promise<string[] | null> {
  const found: string[][] = [];
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      sql: string;
    }>`select sql from sqlite_master where tbl_name = ${table} and type in ('table', 'trigger')`.execute(db);
    for (const { sql: text } of rows) {
      for (const m of text.matchAll(new RegExp(`(?:\\(|new\\.)${column}\\s+(?:not\\s+)?in\\s*\\(([^)]*)\\)`, 'gi')))
        found.push(literals(m[1]!));
    }
  } else {
    const { rows } = await sql<{ def: string }>`
      select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = ${table}::regclass and contype = 'c'`.execute(db);
    for (const { def } of rows) {
      const m = new RegExp(`\\(${column} = ANY \\(+ARRAY\\[([^\\]]*)\\]`).exec(def);
      if (m) found.push(literals(m[1]!));
    }
  }
  if (found.length === 0) return null;
  // Two rules on one column (a table CHECK and a trigger) must agree, or the stricter one wins silently.
  for (const values of found) assert.deepEqual(values, found[0], `${table}.${column}: constraints disagree`);
  return found[0]!;
}

describeEachStore("the store's CHECK constraints equal the domain vocabularies", ({ store, dialect }) => {
  for (const [table, column, vocabulary] of COLUMNS) {
    it(`${table}.${column}`, async () => {
      const values = await checkedValues(store().db, dialect, table, column);
      assert.ok(values, `${table}.${column} has no CHECK constraint`);
      assert.deepEqual([...values].sort(), [...vocabulary].sort());
    });
  }

  it('a value outside the vocabulary is refused, as an insert and as an update', async () => {
    const db = store().db as Kysely<any>;
    await db.insertInto('employers').values({ employer_id: 'emp_v', name: 'E' }).execute();
    const vessel = {
      vessel_id: 'ves_v',
      employer_id: 'emp_v',
      vessel_name: 'V',
      flag_state: 'PT',
      vessel_type: 'general_cargo',
      gross_tonnage: 1000,
      propulsion_kw: 1000,
    };
    await assert.rejects(
      db
        .insertInto('vessels')
        .values({ ...vessel, trading_area: 'inland' })
        .execute(),
      /CHECK constraint|check constraint/i,
    );
    await db
      .insertInto('vessels')
      .values({ ...vessel, trading_area: 'near_coastal' })
      .execute();
    await assert.rejects(
      db.updateTable('vessels').set({ trading_area: 'inland' }).where('vessel_id', '=', 'ves_v').execute(),
      /CHECK constraint|check constraint/i,
    );
    const row = await db.selectFrom('vessels').select('trading_area').where('vessel_id', '=', 'ves_v').executeTakeFirstOrThrow();
    assert.equal(row.trading_area, 'near_coastal');
  });
});
