import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { openStore, type Store } from '../../src/store/connect.ts';
import { countHit } from '../../src/store/repositories/rate-limits-repo.ts';
import { findOrCreateSetting, findSetting } from '../../src/store/repositories/settings-repo.ts';
import { eventually } from '../support/probe.ts';
import { describeEachStore } from '../support/stores.ts';

const TIMEOUT_MS = 300;
const WINDOW = '2026-11-22T10:00:00.000Z';

/** Another process's session holding the lock every write here needs, until `release`. */
interface LockHolder {
  release(): Promise<void>;
}

async function holdSqliteWriteLock(file: string): Promise<LockHolder> {
  const db = new sqlite3.Database(file);
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec('begin immediate');
  return {
    release: async () => {
      await exec('rollback');
      await new Promise<void>((resolve) => db.close(() => resolve()));
    },
  };
}

async function holdPostgresTableLock(url: string): Promise<LockHolder> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query('lock table rate_limits in access exclusive mode');
  return {
    release: async () => {
      await client.query('rollback');
      await client.end();
    },
  };
}

// The rate-limit upsert is the statement every API call makes; a lock held elsewhere (a long
// fixtures load, a migration, an open shell) must cost it one bounded failure and nothing more.
describeEachStore('a store call that gives up on a lock held elsewhere leaves nothing behind', ({ store, url, dialect }) => {
  let mine: Store;
  before(async () => {
    // One connection, so the call after the failure runs where the failure happened.
    mine = await openStore(url(), { timeoutMs: TIMEOUT_MS, poolSize: 1 });
  });
  after(async () => mine?.close());

  it('the call fails within the store timeout; what the connection writes next commits and is seen elsewhere; the abandoned write never lands', async () => {
    assert.equal(await countHit(mine.db, 'partner:ptn_a', WINDOW), 1);
    const holder = dialect === 'sqlite' ? await holdSqliteWriteLock(url().slice('sqlite:'.length)) : await holdPostgresTableLock(url());
    let released = false;
    try {
      await assert.rejects(countHit(mine.db, 'partner:ptn_a', WINDOW), /database is locked|statement timeout|did not answer/);
      await holder.release();
      released = true;
    } finally {
      if (!released) await holder.release();
    }
    // Another statement on the same connection: committed, so another connection sees it at once.
    assert.equal(await findOrCreateSetting(mine.db, 'fault_probe', 'written after the failure'), 'written after the failure');
    assert.equal(await findSetting(store().db, 'fault_probe'), 'written after the failure');
    // An abandoned statement could only run late on a Postgres backend still busy with it; wait
    // until none but this check is active (on SQLite the one connection ran the write above after it).
    if (dialect === 'postgres') {
      await eventually('no statement of the failed call still running', async () => {
        const { rows } = await sql<{ n: string | number }>`select count(*) as n from pg_stat_activity
          where datname = current_database() and state <> 'idle' and pid <> pg_backend_pid()`.execute(store().db);
        return Number(rows[0]!.n) === 0;
      });
    }
    assert.equal(await countHit(store().db, 'partner:ptn_a', WINDOW), 2, 'the abandoned hit was never counted');
    assert.equal(await countHit(mine.db, 'partner:ptn_a', WINDOW), 3);
  });
});
