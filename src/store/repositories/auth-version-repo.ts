import type { Db } from '../database.ts';

/** The auth_version table of migration 0400 (kept out of database.ts). */
interface AuthVersionTable {
  id: number;
  version: number | string;
}

/** The counter every update or delete of an API key or partner bumps (migration 0600-auth-version). */
export async function authVersion(db: Db): Promise<string> {
  const row = await db.withTables<{ auth_version: AuthVersionTable }>().selectFrom('auth_version')
    .select('version').where('id', '=', 1).executeTakeFirst();
  return String(row?.version ?? 0);
}
