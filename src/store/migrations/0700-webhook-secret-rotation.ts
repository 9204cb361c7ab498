import type { Kysely } from 'kysely';

/*
 * Secret rotation without downtime (docs/webhooks.md): an endpoint keeps its current secret and,
 * while a rotation is pending, the next one and the time from which deliveries are signed with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('next_secret', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('next_secret_from', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('next_secret_from').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('next_secret').execute();
}
