import type { Kysely } from 'kysely';

/*
 * Ed25519 signatures (docs/webhooks.md, "Ed25519 signatures (v1a)"): an endpoint whose operator
 * chose them keeps its `whsk_` secret key, as it keeps its signing secret, and during a rotation
 * the next one, which signs from `next_secret_from` on. Null for every endpoint before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('signing_key', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('next_signing_key', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('next_signing_key').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('signing_key').execute();
}
