import { sql, type Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

/*
 * A counter that every update or delete of an API key or a partner bumps, whoever writes (an
 * admin command, another `svc serve`, plain SQL). Server processes cache authenticated keys and
 * re-read this one row at most every half second to learn that a cached key may have been
 * revoked or its partner changed (src/services/authenticate.ts). A frozen snapshot.
 */
const TABLES = ['api_keys', 'partners'];

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('auth_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('auth_version').values({ id: 1, version: 0 }).execute();
  if (pg) {
    await sql
      .raw(
        `create function auth_version_bump() returns trigger language plpgsql as $$
      begin update auth_version set version = version + 1 where id = 1; return null; end $$`,
      )
      .execute(db);
  }
  for (const table of TABLES) {
    if (pg) {
      await sql
        .raw(
          `create trigger auth_version_${table} after update or delete on ${table}
        for each statement execute function auth_version_bump()`,
        )
        .execute(db);
      continue;
    }
    for (const event of ['update', 'delete']) {
      await sql
        .raw(
          `create trigger auth_version_${table}_${event} after ${event} on ${table}
        begin update auth_version set version = version + 1 where id = 1; end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of TABLES) {
    if (pg) await sql.raw(`drop trigger if exists auth_version_${table} on ${table}`).execute(db);
    else for (const event of ['update', 'delete']) await sql.raw(`drop trigger if exists auth_version_${table}_${event}`).execute(db);
  }
  if (pg) await sql.raw('drop function if exists auth_version_bump()').execute(db);
  await db.schema.dropTable('auth_version').ifExists().execute();
}
