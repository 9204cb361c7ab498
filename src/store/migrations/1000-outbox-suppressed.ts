import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-of.ts';

/*
 * An outbox event that no longer passes the access rule when it is due is `suppressed` (not sent,
 * not dead-lettered), with its reason and time. The status list is a frozen copy of
 * OUTBOX_STATUSES in src/domain/vocabulary.ts as it stood.
 *
 * SQLite holds the status CHECK inside the table definition and cannot alter it; rebuilding the
 * table would cascade-delete every stored attempt and dead letter (their foreign keys). Widening
 * an IN list only lets more rows in, so the definition is rewritten in place, as SQLite's ALTER
 * TABLE documentation allows for loosening a CHECK (sqlite.org/lang_altertable.html, section 7).
 */
const OLD = "status in ('pending', 'delivered', 'dead')";
const NEW = "status in ('pending', 'delivered', 'dead', 'suppressed')";

async function rewriteSqliteCheck(db: Kysely<any>, from: string, to: string): Promise<void> {
  const { rows } = await sql<{ schema_version: number }>`pragma schema_version`.execute(db);
  await sql`pragma writable_schema = on`.execute(db);
  await sql`update sqlite_master set sql = replace(sql, ${from}, ${to}) where type = 'table' and name = 'outbox_events'`.execute(db);
  await sql.raw(`pragma schema_version = ${Number(rows[0]!.schema_version) + 1}`).execute(db);
  await sql`pragma writable_schema = off`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table outbox_events drop constraint if exists outbox_events_status_check`.execute(db);
    await sql.raw(`alter table outbox_events add constraint outbox_events_status_check check (${NEW})`).execute(db);
  } else {
    await rewriteSqliteCheck(db, OLD, NEW);
  }
  await db.schema.alterTable('outbox_events').addColumn('suppressed_reason', 'text').execute();
  await db.schema.alterTable('outbox_events').addColumn('suppressed_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('outbox_events').set({ status: 'dead' }).where('status', '=', 'suppressed').execute();
  await db.schema.alterTable('outbox_events').dropColumn('suppressed_at').execute();
  await db.schema.alterTable('outbox_events').dropColumn('suppressed_reason').execute();
  if (dialectOf(db) === 'postgres') {
    await sql`alter table outbox_events drop constraint if exists outbox_events_status_check`.execute(db);
    await sql.raw(`alter table outbox_events add constraint outbox_events_status_check check (${OLD})`).execute(db);
  } else {
    await rewriteSqliteCheck(db, NEW, OLD);
  }
}
