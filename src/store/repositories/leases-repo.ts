import type { Db } from '../database.ts';

/** Who holds a named lease, and until when. */
export interface Lease {
  name: string;
  holder: string;
  expiresAt: string;
}

/**
 * Takes the lease for `holder` when it is free or expired, in one statement, and says whether
 * `holder` now holds it. Two callers racing for it cannot both win.
 */
export async function acquireLease(db: Db, name: string, holder: string, now: string, expiresAt: string): Promise<boolean> {
  await db
    .insertInto('leases')
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('name').doUpdateSet({ holder, expires_at: expiresAt }).where('leases.expires_at', '<=', now))
    .execute();
  const lease = await findLease(db, name);
  return lease?.holder === holder && lease.expiresAt === expiresAt;
}

/** Extends a lease still held by `holder`; false when it was lost (expired and taken over). */
export async function renewLease(db: Db, name: string, holder: string, expiresAt: string): Promise<boolean> {
  const res = await db
    .updateTable('leases')
    .set({ expires_at: expiresAt })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}

export async function findLease(db: Db, name: string): Promise<Lease | undefined> {
  const row = await db.selectFrom('leases').selectAll().where('name', '=', name).executeTakeFirst();
  return row && { name: row.name, holder: row.holder, expiresAt: row.expires_at };
}
