import type { Kysely } from 'kysely';

/*
 * Endpoint health (docs/webhooks.md, "Endpoint health"): consecutive failed attempts, since when
 * every attempt has failed, the last delivered attempt, and why and when `svc sync` disabled the
 * endpoint. Change capture watches only partner_id and status of this table (0300), so updating
 * health after each attempt creates no change rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('failing_since', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('last_success_at', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('disabled_reason', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('disabled_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['disabled_at', 'disabled_reason', 'last_success_at', 'failing_since', 'consecutive_failures']) {
    await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
  }
}
