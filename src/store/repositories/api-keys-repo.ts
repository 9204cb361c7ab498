import type { Insertable, Selectable } from 'kysely';
import type { ApiKeyRecord } from '../../domain/api-keys.ts';
import type { ApiKeysTable, Db } from '../database.ts';

export function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    keyId: row.key_id,
    partnerId: row.partner_id,
    kind: row.kind,
    prefix: row.prefix,
    last4: row.last4,
    keyHash: row.key_hash,
    status: row.status,
    label: row.label,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export async function insertApiKey(db: Db, row: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row && toApiKey(row);
}

export async function findApiKey(db: Db, keyId: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  return row && toApiKey(row);
}

export async function listApiKeys(db: Db, partnerId?: string): Promise<ApiKeyRecord[]> {
  let query = db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('key_id');
  if (partnerId !== undefined) query = query.where('partner_id', '=', partnerId);
  return (await query.execute()).map(toApiKey);
}

/** Marks a key revoked; an already revoked key keeps its first revocation time. */
export async function revokeApiKey(db: Db, keyId: string, at: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ status: 'revoked', revoked_at: at })
    .where('key_id', '=', keyId)
    .where('status', '=', 'active')
    .execute();
}

/** Revokes a partner's active keys that carry `label`; returns their ids. */
export async function revokeActiveKeysLabelled(db: Db, partnerId: string, label: string, at: string): Promise<string[]> {
  const rows = await db
    .updateTable('api_keys')
    .set({ status: 'revoked', revoked_at: at })
    .where('partner_id', '=', partnerId)
    .where('label', '=', label)
    .where('status', '=', 'active')
    .where('kind', '!=', 'operator')
    .returning('key_id')
    .execute();
  return rows.map((row) => row.key_id).sort();
}

export async function deleteApiKey(db: Db, keyId: string): Promise<void> {
  await db.deleteFrom('api_keys').where('key_id', '=', keyId).execute();
}
