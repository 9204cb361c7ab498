import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openStore } from '../../src/store/connect.ts';
import { kyselyPool } from '../../src/store/dialects/pg-pool.ts';
import { MAX_NAMED_PARAMETERS } from '../../src/store/dialects/pg-prepared.ts';
import { describeEachStore } from '../support/stores.ts';

/** Few slots, so that a handful of statements already evicts. */
const SLOTS = 3;

interface Items {
  items: { id: number; v: number };
  shape: { id: number; v: number };
  reshaped: { id: number; v: number };
  named: { id: number; v: number };
  plain: { id: number; v: number };
}

/** One connection; the test database is dropped (connections and all) before these close. */
function quietPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  return pool;
}

/** One connection, so that every statement lands where the previous ones were prepared. */
async function oneConnection(url: string, dialect: 'sqlite' | 'postgres'): Promise<Kysely<Items>> {
  if (dialect === 'sqlite') return (await openStore(url, { poolSize: 1 })).db as unknown as Kysely<Items>;
  return new Kysely<Items>({ dialect: new PostgresDialect({ pool: kyselyPool(quietPool(url), { preparedPerConnection: SLOTS }) }) });
}

async function preparedStatements(db: Kysely<Items>): Promise<string[]> {
  const r = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
  return r.rows.map((x) => x.statement);
}

type Op = { op: 'insert'; id: number; v: number } | { op: 'get'; id: number; shape: number } | { op: 'bad'; id: number };
type Step = Op | { op: 'tx'; ops: Op[]; fail: boolean };

/** Four different SELECTs (more than SLOTS), so that a sequence of them evicts and re-prepares. */
function runOp(db: Kysely<Items>, table: 'named' | 'plain', o: Op): Promise<unknown> {
  if (o.op === 'insert')
    return db
      .insertInto(table)
      .values({ id: o.id, v: o.v })
      .execute()
      .then(() => 'inserted');
  // Refused when parsed (no such column): nothing is prepared.
  if (o.op === 'bad') return sql`select v from ${sql.table(table)} where nope = ${o.id}`.execute(db);
  const q = db.selectFrom(table);
  if (o.shape === 0) return q.select('v').where('id', '=', o.id).execute();
  if (o.shape === 1) return q.select(['id', 'v']).where('id', '<=', o.id).orderBy('id').execute();
  if (o.shape === 2)
    return q
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('id', '>=', o.id)
      .execute()
      .then((r) => Number(r[0]!.n));
  return q
    .select((e) => e.fn.sum<number>('v').as('s'))
    .where('id', '<>', o.id)
    .execute()
    .then((r) => Number(r[0]!.s ?? 0));
}

async function outcomes(db: Kysely<Items>, table: 'named' | 'plain', steps: Step[]): Promise<unknown[]> {
  await db.deleteFrom(table).execute();
  const out: unknown[] = [];
  const settle = (p: Promise<unknown>) =>
    p.then(
      (r) => out.push(r),
      (err: { code?: string }) => out.push(`error ${err.code}`),
    );
  for (const s of steps) {
    if (s.op !== 'tx') {
      await settle(runOp(db, table, s));
      continue;
    }
    await settle(
      db.transaction().execute(async (trx) => {
        for (const o of s.ops) out.push(await runOp(trx, table, o));
        // A duplicate key: the transaction fails on the server and rolls back.
        if (s.fail)
          await trx
            .insertInto(table)
            .values([
              { id: 100, v: 0 },
              { id: 100, v: 0 },
            ])
            .execute();
        return 'committed';
      }),
    );
  }
  return out;
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), id: fc.integer({ min: 0, max: 6 }), v: fc.integer({ min: -50, max: 50 }) }),
  fc.record({ op: fc.constant('get' as const), id: fc.integer({ min: 0, max: 6 }), shape: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ op: fc.constant('bad' as const), id: fc.integer({ min: 0, max: 6 }) }),
);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: opArb, weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('tx' as const), ops: fc.array(opArb, { maxLength: 4 }), fail: fc.boolean() }), weight: 1 },
);

describeEachStore(
  'statements the store prepares',
  ({ url, dialect }) => {
    let db: Kysely<Items>;
    before(async () => {
      db = await oneConnection(url(), dialect);
      for (const t of ['items', 'shape', 'reshaped', 'named', 'plain'])
        await sql`create table ${sql.table(t)} (id integer primary key, v integer not null)`.execute(db);
    });
    after(() => db.destroy());

    it('roll back a transaction whose statement failed, and run the same statements afterwards', async () => {
      const insert = (db: Kysely<Items>) => db.insertInto('items').values({ id: 10, v: 1 }).execute();
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await insert(trx);
          await insert(trx);
        }),
        (err: { code?: string }) => ['23505', 'SQLITE_CONSTRAINT'].includes(err.code!),
      );
      assert.deepEqual(await db.selectFrom('items').select('v').where('id', '=', 10).execute(), []);
      await insert(db);
      assert.deepEqual(await db.selectFrom('items').select('v').where('id', '=', 10).execute(), [{ v: 1 }]);
    });

    it('answer with the new columns after a schema change, for a statement prepared before it', async () => {
      await db.insertInto('shape').values({ id: 1, v: 2 }).execute();
      const star = () => sql<Record<string, number>>`select * from shape where id = ${1}`.execute(db).then((r) => r.rows);
      assert.deepEqual(await star(), [{ id: 1, v: 2 }]);
      await sql`alter table shape add column w integer not null default 7`.execute(db);
      assert.deepEqual(await star(), [{ id: 1, v: 2, w: 7 }]);
    });

    it('run batch statements of any length: rows counted, a failed batch rolled back, the next one committed', async () => {
      // Past 4,000 characters of SQL a statement is compiled for one use on SQLite (not cached).
      const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: 1000 + from + i, v: i }));
      const insert = (db: Kysely<Items>, from: number, n: number) => {
        const q = db.insertInto('items').values(rows(from, n));
        if (n >= 600) assert.ok(q.compile().sql.length > 4000);
        return q;
      };
      for (const [k, n] of [100, 600, 601, 1400].entries()) {
        const r = await insert(db, k * 10_000, n).executeTakeFirst();
        assert.equal(Number(r.numInsertedOrUpdatedRows), n);
      }
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await insert(trx, 100_000, 800).execute();
          await insert(trx, 100_000, 800).execute();
        }),
        (err: { code?: string }) => ['23505', 'SQLITE_CONSTRAINT'].includes(err.code!),
      );
      await insert(db, 200_000, 800).execute();
      const ids = [...rows(10_000, 600), ...rows(100_000, 800), ...rows(200_000, 800)].map((r) => r.id);
      const q = db.selectFrom('items').select('id').where('id', 'in', ids);
      assert.ok(q.compile().sql.length > 4000);
      assert.equal((await q.execute()).length, 1400, 'the batches before and after the failure, not the failed one');
    });

    if (dialect !== 'postgres') return;

    it('give the same answers as unprepared statements, through evictions, failed transactions and rollbacks', async () => {
      const plain = new Kysely<Items>({ dialect: new PostgresDialect({ pool: quietPool(url()) }) });
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(stepArb, { maxLength: 25 }), async (steps) => {
            assert.deepEqual(await outcomes(db, 'named', steps), await outcomes(plain, 'plain', steps));
          }),
          { numRuns: 40 },
        );
      } finally {
        await plain.destroy();
      }
    });

    it('prepare a statement once however often it runs, and different statements under names of their own', async () => {
      const byId = (id: number) => db.selectFrom('items').select('v').where('id', '=', id).execute();
      const byValue = (v: number) => db.selectFrom('items').select('id').where('v', '=', v).execute();
      await byId(1);
      await byId(2);
      await byValue(3);
      const prepared = await preparedStatements(db);
      const compiled = (q: { compile(): { sql: string } }) => q.compile().sql;
      assert.equal(prepared.filter((s) => s === compiled(db.selectFrom('items').select('v').where('id', '=', 0))).length, 1);
      assert.equal(prepared.filter((s) => s === compiled(db.selectFrom('items').select('id').where('v', '=', 0))).length, 1);
    });

    it('leave bulk statements unnamed: past MAX_NAMED_PARAMETERS, the text varies with its list', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => i);
      const inList = (n: number) => db.selectFrom('items').select('id').where('id', 'in', ids(n));
      await inList(MAX_NAMED_PARAMETERS).execute();
      await inList(MAX_NAMED_PARAMETERS + 1).execute();
      const prepared = await preparedStatements(db);
      assert.ok(prepared.includes(inList(MAX_NAMED_PARAMETERS).compile().sql));
      assert.ok(!prepared.includes(inList(MAX_NAMED_PARAMETERS + 1).compile().sql));
    });

    it('keep at most the configured number prepared on a connection, and re-prepare an evicted one', async () => {
      const distinct = (k: number) => sql<{ n: number }>`select ${sql.lit(k)} + ${5}::int as n`.execute(db).then((r) => r.rows[0]!.n);
      for (let round = 0; round < 2; round++) for (let k = 0; k < SLOTS + 3; k++) assert.equal(await distinct(k), k + 5);
      const left = await preparedStatements(db);
      assert.ok(left.length <= SLOTS, left.join('\n'));
    });

    it('fail a statement in an aborted transaction as Postgres does, then go on once it rolled back', async () => {
      const fresh = (k: number) => sql<{ n: number }>`select ${sql.lit(k)} * ${2}::int as n`.execute(db).then((r) => r.rows[0]!.n);
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await sql`select 1 / ${0}::int`.execute(trx).catch(() => {});
          await sql`select ${sql.lit(99)} * ${2}::int as n`.execute(trx);
        }),
        /current transaction is aborted/,
      );
      for (let k = 0; k < SLOTS + 1; k++) assert.equal(await fresh(k), 2 * k);
    });

    it('fail a transaction once when a statement prepared before a schema change returns other columns; the next call works', async () => {
      // A table of its own: another test changes the schema of shape.
      await db.insertInto('reshaped').values({ id: 1, v: 2 }).execute();
      const star = (db: Kysely<Items>) =>
        sql<Record<string, number>>`select * from reshaped where id = ${1}`.execute(db).then((r) => r.rows);
      await star(db);
      await sql`alter table reshaped add column x integer not null default 8`.execute(db);
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('items').values({ id: 20, v: 0 }).execute();
          return star(trx);
        }),
        /cached plan must not change result type/,
      );
      assert.deepEqual(await db.selectFrom('items').select('v').where('id', '=', 20).execute(), []);
      assert.deepEqual(await star(db), [{ id: 1, v: 2, x: 8 }]);
    });
  },
  { migrate: false },
);
