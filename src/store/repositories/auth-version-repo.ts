import type { Db } from '../database.ts';

/** The counter every update or delete of an API key or partner bumps (migration 0600-auth-version). */
export async function authVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('auth_version').select('version').where('id', '=', 1).executeTakeFirst();
  return String(row?.version ?? 0);
}
