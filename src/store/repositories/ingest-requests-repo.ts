import type { Db } from '../database.ts';

/** The answer of one POST /api/v2/admin/changes, kept under its Idempotency-Key. */
export interface StoredRequest {
  bodySha256: string;
  /** The answer as sent (JSON). */
  answer: string;
}

/** The answer kept under `key`, if it was stored at or after `since`. */
export async function findIngestRequest(db: Db, key: string, since: string): Promise<StoredRequest | undefined> {
  const row = await db
    .selectFrom('ingest_requests')
    .select(['body_sha256', 'answer'])
    .where('idempotency_key', '=', key)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row && { bodySha256: row.body_sha256, answer: row.answer };
}

/** Keeps an answer under its key; false when the key is taken already (another request stored it first). */
export async function saveIngestRequest(db: Db, key: string, request: StoredRequest, at: string): Promise<boolean> {
  const inserted = await db
    .insertInto('ingest_requests')
    .values({ idempotency_key: key, body_sha256: request.bodySha256, answer: request.answer, created_at: at })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('idempotency_key')
    .execute();
  return inserted.length === 1;
}

/** Forgets the answers stored before `before`. */
export async function purgeIngestRequests(db: Db, before: string): Promise<void> {
  await db.deleteFrom('ingest_requests').where('created_at', '<', before).execute();
}
