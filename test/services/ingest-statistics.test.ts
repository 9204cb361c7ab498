import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import type { Incoming } from '../../src/services/ingest/apply-changes.ts';
import { DEFAULT_BATCH, ingestStream, STATS_REFRESH_FIRST } from '../../src/services/ingest/ingest-stream.ts';
import { INGEST_TABLES } from '../../src/store/repositories/maintenance-repo.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * A large run into a store that starts empty must not keep the query plans the store made while
 * its tables were nearly empty: Postgres plans each foreign-key check once per connection, and a
 * plan made on a page or two of crew scans the whole crew table for every document after
 * (docs/ingest.md, "Speed"). The run refreshes the statistics as it grows the store.
 */

const employer = (n: number): Incoming => ({
  origin: `stats:${n + 1}`,
  text: JSON.stringify({ entity: 'employer', op: 'upsert', id: `emp_stats_${n}`, version: 1, data: { name: `Employer ${n}` } }),
});

describeEachStore('ingest: statistics refreshed while a run grows the store', ({ store, dialect }) => {
  /** The row count the store's statistics hold for employers (none: -1). */
  const employersInStatistics = async (): Promise<number> => {
    const db = store().db;
    if (dialect === 'postgres') {
      const r = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where relname = 'employers'`.execute(db);
      return Number(r.rows[0]?.n ?? -1);
    }
    const table = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (Number(table.rows[0]!.n) === 0) return -1;
    const r = await sql<{ stat: string }>`select stat from sqlite_stat1 where tbl = 'employers'`.execute(db);
    return r.rows.length === 0 ? -1 : Number(r.rows[0]!.stat.split(' ')[0]);
  };

  /** Whether the change log has statistics from an ANALYZE run by hand (not autovacuum's). */
  const changeLogAnalyzed = async (): Promise<boolean> => {
    const db = store().db;
    if (dialect === 'postgres') {
      const r = await sql<{ at: unknown }>`select last_analyze as at from pg_stat_user_tables where relname = 'changes'`.execute(db);
      return r.rows[0]?.at != null;
    }
    const table = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (Number(table.rows[0]!.n) === 0) return false;
    const r = await sql<{ n: number }>`select count(*) as n from sqlite_stat1 where tbl = 'changes'`.execute(db);
    return Number(r.rows[0]!.n) > 0;
  };

  it(`after the first ${STATS_REFRESH_FIRST} changes applied, before the input ends, the ingest tables only`, async () => {
    let midRun: number | undefined;
    let changeLogMidRun: boolean | undefined;
    async function* source() {
      // The run writes one batch while it reads the next: asked for a change past the batch after
      // the one that reached STATS_REFRESH_FIRST, it has committed (and refreshed after) that one.
      const upTo = STATS_REFRESH_FIRST + DEFAULT_BATCH;
      for (let n = 0; n < upTo; n++) yield employer(n);
      midRun = await employersInStatistics();
      changeLogMidRun = await changeLogAnalyzed();
      yield employer(upTo);
    }
    const summary = await ingestStream(store().db, source(), {
      clock: () => new Date('2026-11-22T10:00:00.000Z'),
      holdMs: 3_600_000,
    });
    assert.equal(summary.counts.applied, STATS_REFRESH_FIRST + DEFAULT_BATCH + 1);
    assert.ok(midRun !== undefined && midRun >= STATS_REFRESH_FIRST, `statistics counted ${midRun} employers while the run went on`);
    assert.equal(changeLogMidRun, false, 'the refresh analyzed the change log, not only the ingest tables');
    // SQLite keeps no statistics for an empty table (the change log here): Postgres notes the ANALYZE.
    if (dialect === 'postgres') assert.equal(await changeLogAnalyzed(), true, "the run's end analyzes the whole store");
  });

  if (dialect === 'postgres')
    it('covers both ends of every foreign key of the tables ingest writes (the plans Postgres keeps)', async () => {
      const written = new Set<string>(INGEST_TABLES.filter((t) => !t.startsWith('ingest_') && t !== 'requirement_catalogue'));
      const r = await sql<{ child: string; parent: string }>`
        select conrelid::regclass::text as child, confrelid::regclass::text as parent
        from pg_constraint where contype = 'f'`.execute(store().db);
      const refreshed = new Set<string>(INGEST_TABLES);
      const missing = r.rows
        .filter((k) => written.has(k.child) || written.has(k.parent))
        .flatMap((k) => [k.child, k.parent])
        .filter((t) => !refreshed.has(t));
      assert.ok(r.rows.some((k) => k.child === 'documents' && k.parent === 'crew'));
      assert.deepEqual([...new Set(missing)], []);
    });
});
