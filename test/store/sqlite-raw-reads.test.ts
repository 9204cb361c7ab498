import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../../src/store/connect.ts';
import { createSqliteStoreUrl } from '../support/stores.ts';

/** `work`, or a rejection once `ms` have passed without it settling. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not answered within ${ms} ms`)), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

// The reads of one crew member are raw SQL (src/store/repositories/crew-on-fleet-repo.ts): while a
// write of this process waits (an audit batch behind another process's lock, say), they are
// answered beside it, as built SELECTs are, and raw writes still wait their turn.
it('on SQLite a raw SELECT is answered while a transaction holds the write lock; a raw write waits for it', async () => {
  const test = await createSqliteStoreUrl();
  const store = await openStore(test.url, { poolSize: 2 });
  try {
    await sql`create table items (id integer primary key, v text)`.execute(store.db);
    await sql`insert into items (id, v) values (1, 'one')`.execute(store.db);
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const writing = store.db.transaction().execute(async (tx) => {
      await sql`insert into items (id, v) values (2, 'two')`.execute(tx);
      await held;
    });
    // The transaction has begun (it holds the lock) once its insert is in.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const id of [1, 2, 1]) {
      const read = await within(2_000, sql<{ v: string }>`select v from items where id = ${id}`.execute(store.db));
      assert.deepEqual(
        read.rows.map((r) => r.v),
        id === 1 ? ['one'] : [],
        'the read sees what was committed, not the open transaction',
      );
    }
    let wrote = false;
    const write = sql`update items set v = 'uno' where id = 1`.execute(store.db).then(() => (wrote = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(wrote, false, 'a raw write waits for the transaction');
    finish();
    await writing;
    await within(2_000, write);
    const after = await sql<{ id: number; v: string }>`select id, v from items order by id`.execute(store.db);
    assert.deepEqual(after.rows, [
      { id: 1, v: 'uno' },
      { id: 2, v: 'two' },
    ]);
  } finally {
    await store.close();
    await test.dispose();
  }
});
