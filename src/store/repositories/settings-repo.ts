import type { Db } from '../database.ts';

export async function findSetting(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/**
 * The setting's value, storing `candidate` first when there is none. Concurrent callers (several
 * server processes starting at once) all end up with the one value that won the insert.
 */
export async function findOrCreateSetting(db: Db, name: string, candidate: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ name, value: candidate })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const value = await findSetting(db, name);
  if (value === undefined) throw new Error(`setting ${name} vanished right after it was stored`);
  return value;
}

/** Stores the setting's value, replacing the one it had. */
export async function putSetting(db: Db, name: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}
