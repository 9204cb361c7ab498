import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Change capture for incremental sync (docs/webhooks.md, "How a run finds what changed"). Every
 * insert, update and delete of a table that webhook events depend on records a row in `changes`
 * in the same transaction, whoever writes: the loader, the generator, or plain SQL from another
 * program. Each row names the table, the row's key, and the crew member and/or partner it
 * concerns; `tx` is the writing transaction's id on Postgres (xid8 as a number; 0 on SQLite,
 * where writers are serialized and `seq` order is commit order). sync_snapshots gains `next_due`,
 * the next date at which a pair's payloads can change by the calendar alone.
 *
 * A frozen snapshot: the table list and expressions below are written out here, not imported.
 */

interface Captured {
  table: string;
  pk: string[];
  /** SQL expressions over a row alias (`new`, `old`, `n`, `o`). */
  key: (r: string) => string;
  crew?: (r: string) => string;
  partner?: (r: string) => string;
  /** Only updates that change one of these columns are recorded (default: any update). */
  watch?: string[];
}

const col = (c: string) => (r: string) => `${r}.${c}`;
const CAPTURED: Captured[] = [
  { table: 'crew', pk: ['crew_unique_id'], key: col('crew_unique_id'), crew: col('crew_unique_id') },
  { table: 'documents', pk: ['document_id'], key: col('document_id'), crew: col('crew_unique_id') },
  { table: 'assignments', pk: ['assignment_id'], key: col('assignment_id'), crew: col('crew_unique_id') },
  {
    table: 'consents',
    pk: ['crew_unique_id', 'partner_id', 'category'],
    key: (r) => `${r}.crew_unique_id || '|' || ${r}.partner_id || '|' || ${r}.category`,
    crew: col('crew_unique_id'),
    partner: col('partner_id'),
  },
  { table: 'vessels', pk: ['vessel_id'], key: col('vessel_id') },
  {
    table: 'contract_vessels',
    pk: ['partner_id', 'vessel_id'],
    key: (r) => `${r}.partner_id || '|' || ${r}.vessel_id`,
    partner: col('partner_id'),
  },
  {
    table: 'partners',
    pk: ['partner_id'],
    key: col('partner_id'),
    partner: col('partner_id'),
    watch: ['kind', 'employer_id', 'tier', 'scope_overrides', 'upgraded', 'contract_scopes'],
  },
  { table: 'requirement_catalogue', pk: ['requirement_key'], key: col('requirement_key'), watch: ['position', 'definition'] },
  // Secret rotation and subscription edits change no snapshot; activation and ownership do.
  { table: 'webhook_endpoints', pk: ['endpoint_id'], key: col('endpoint_id'), partner: col('partner_id'), watch: ['partner_id', 'status'] },
];

const values = (captured: Captured, rowAlias: string) =>
  `'${captured.table}', ${captured.key(rowAlias)}, ${captured.crew?.(rowAlias) ?? 'null'}, ${captured.partner?.(rowAlias) ?? 'null'}`;
const INSERT = 'insert into changes (table_name, row_key, crew_unique_id, partner_id)';

function sqliteTriggers(captured: Captured): string[] {
  const changed = (captured.watch ?? []).map((w) => `old.${w} is not new.${w}`).join(' or ');
  const moved = [captured.key, captured.crew, captured.partner]
    .filter((f) => f !== undefined)
    .map((f) => `${f('old')} is not ${f('new')}`)
    .join(' or ');
  return [
    `create trigger changes_${captured.table}_ins after insert on ${captured.table} for each row begin ${INSERT} values (${values(captured, 'new')}); end`,
    `create trigger changes_${captured.table}_del after delete on ${captured.table} for each row begin ${INSERT} values (${values(captured, 'old')}); end`,
    `create trigger changes_${captured.table}_upd after update on ${captured.table} for each row ${changed ? `when ${changed} ` : ''}begin
       ${INSERT} values (${values(captured, 'new')});
       ${INSERT} select ${values(captured, 'old')} where ${moved};
     end`,
  ];
}

/** Statement-level triggers with transition tables: one insert per statement, cheap for bulk loads. */
function postgresTriggers(captured: Captured): string[] {
  const same = (oldAlias: string, newAlias: string) =>
    [
      ...captured.pk.map((k) => `${oldAlias}.${k} = ${newAlias}.${k}`),
      captured.watch
        ? captured.watch.map((w) => `${oldAlias}.${w} is not distinct from ${newAlias}.${w}`).join(' and ')
        : `(${oldAlias}.*) is not distinct from (${newAlias}.*)`,
    ].join(' and ');
  const fn = (op: string, body: string) => `create function changes_${captured.table}_${op}() returns trigger language plpgsql as $$
    begin ${body}; return null; end $$`;
  const trigger = (op: string, event: string, refs: string) =>
    `create trigger changes_${captured.table}_${op} after ${event} on ${captured.table} referencing ${refs} ` +
    `for each statement execute function changes_${captured.table}_${op}()`;
  return [
    fn('ins', `${INSERT} select ${values(captured, 'n')} from new_rows n`),
    trigger('ins', 'insert', 'new table as new_rows'),
    fn('del', `${INSERT} select ${values(captured, 'o')} from old_rows o`),
    trigger('del', 'delete', 'old table as old_rows'),
    fn(
      'upd',
      `${INSERT} select ${values(captured, 'n')} from new_rows n where not exists (select 1 from old_rows o where ${same('o', 'n')})
      union select ${values(captured, 'o')} from old_rows o where not exists (select 1 from new_rows n where ${same('o', 'n')})`,
    ),
    trigger('upd', 'update', 'old table as old_rows new table as new_rows'),
  ];
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  let table = db.schema.createTable('changes');
  table = pg
    ? table
        .addColumn('seq', 'bigserial', (c) => c.primaryKey())
        .addColumn('tx', 'bigint', (c) => c.notNull().defaultTo(sql`(pg_current_xact_id()::text::bigint)`))
    : table.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('tx', 'integer', (c) => c.notNull().defaultTo(0));
  await table
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('row_key', 'text', (c) => c.notNull())
    .addColumn('crew_unique_id', 'text')
    .addColumn('partner_id', 'text')
    .execute();
  await db.schema.createIndex('changes_position').on('changes').columns(['tx', 'seq']).execute();

  await db.schema.alterTable('sync_snapshots').addColumn('next_due', 'text').execute();
  await db.schema.createIndex('sync_snapshots_next_due').on('sync_snapshots').columns(['next_due', 'crew_unique_id']).execute();

  for (const captured of CAPTURED) {
    for (const statement of pg ? postgresTriggers(captured) : sqliteTriggers(captured)) await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const captured of CAPTURED) {
    for (const op of ['ins', 'upd', 'del']) {
      await sql.raw(`drop trigger if exists changes_${captured.table}_${op}${pg ? ` on ${captured.table}` : ''}`).execute(db);
      if (pg) await sql.raw(`drop function if exists changes_${captured.table}_${op}()`).execute(db);
    }
  }
  await db.schema.dropIndex('sync_snapshots_next_due').ifExists().execute();
  await db.schema.alterTable('sync_snapshots').dropColumn('next_due').execute();
  await db.schema.dropTable('changes').ifExists().execute();
}
