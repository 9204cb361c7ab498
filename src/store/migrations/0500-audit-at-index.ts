import type { Kysely } from 'kysely';

/*
 * `svc admin audit` reads the newest rows first, over every partner: an index on `at` keeps that
 * a short index walk on a log of millions of rows (the per-partner reads use audit_log_partner_at).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_at').ifExists().execute();
}
