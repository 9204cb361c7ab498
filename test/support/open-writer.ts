import type { Db } from '../../src/store/database.ts';

/**
 * A transaction on `db` that has run `write` and stays open until `commit` is called: a writer in
 * flight, for tests of readers that must not move past it.
 */
export async function openWriter(db: Db, write: (trx: Db) => Promise<unknown>): Promise<{ commit(): Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const tx = db.transaction().execute(async (trx) => {
    await write(trx);
    wrote();
    await held;
  });
  await Promise.race([written, tx]);
  return {
    commit: async () => {
      release();
      await tx;
    },
  };
}
