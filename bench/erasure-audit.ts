// The audit log's part of an erasure as the log grows: a crew member with 10 documents erased
// (eraseCrew, rolled back so each round erases the same one) beside a log of each size, on SQLite
// and Postgres. The reference is the same erasure beside the smallest log, in the same run: the
// ratio says how the erasure's time grows with the log, not how fast this machine is today.
// Run: npx tsx bench/erasure-audit.ts (ERASURE_LOG_ROWS=100000,1000000, ERASURE_ROUNDS=7,
// ERASURE_STORES=sqlite,postgres); writes bench/results/erasure-beside-the-audit-log.md.
import { sql } from 'kysely';
import { openStore } from '../src/store/connect.ts';
import { eraseCrew } from '../src/store/repositories/ingest-entities-repo.ts';
import { migrateToLatest } from '../src/store/migrator.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { dropStore, freshStore } from './support/setup.ts';
import { documentRow } from '../test/support/change-world.ts';
import { seedCrewOnFleet, seedPartners } from '../test/support/sync-world.ts';

const SIZES = (process.env.ERASURE_LOG_ROWS ?? '100000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.ERASURE_ROUNDS ?? 7);
const STORES = (process.env.ERASURE_STORES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const CREW = 'crew_erased';
const T0 = '2026-11-22T10:00:00.000Z';

class Rollback extends Error {}

/** The log's rows: one call in 100 matched no route; the others name one of 50,000 crew members. */
function fillLog(dialect: 'sqlite' | 'postgres', rows: number) {
  const numbers =
    dialect === 'postgres'
      ? sql`select i from generate_series(1, ${rows}) as g(i)`
      : sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows}) select i from n`;
  const text = (e: ReturnType<typeof sql>) => (dialect === 'postgres' ? sql`(${e})::text` : sql`cast(${e} as text)`);
  return sql`insert into audit_log (request_id, at, partner_id, key_id, method, route, path, crew_unique_id, document_id, status, latency_ms, client_ip)
    select 'req_' || ${text(sql`i`)}, ${T0}, null, null, 'GET',
      case when i % 100 = 0 then null else '/api/v2/employers/me/crew/{crew_unique_id}/profile' end,
      case when i % 100 = 0 then '/api/v2/nothing/' || ${text(sql`i`)} else '/api/v2/employers/me/crew/crew_' || ${text(sql`i % 50000`)} || '/profile' end,
      case when i % 100 = 0 then null else 'crew_' || ${text(sql`i % 50000`)} end,
      null, 200, 1, null
    from (${numbers}) as numbered`;
}

const lines: string[] = [];
const results: Array<Array<string | number>> = [];
for (const dialect of STORES) {
  const medians: number[] = [];
  for (const size of SIZES) {
    const name = `bench_erasure_${size}`;
    const { url } = await freshStore(dialect, name);
    const store = await openStore(url);
    try {
      await migrateToLatest(store.db);
      await seedPartners(store.db, 'ptn_a');
      await seedCrewOnFleet(store.db, CREW);
      await store.db
        .insertInto('documents')
        .values(Array.from({ length: 10 }, (_, d) => documentRow(`doc_erased_${d}`, CREW, d, null, T0)))
        .execute();
      await fillLog(dialect, size).execute(store.db);
      await sql`insert into audit_log (request_id, at, method, route, path, crew_unique_id, status, latency_ms)
        values ('req_target', ${T0}, 'GET', '/api/v2/employers/me/crew/{crew_unique_id}/profile', ${`/api/v2/employers/me/crew/${CREW}/profile`}, ${CREW}, 200, 1)`.execute(
        store.db,
      );
      await sql`analyze`.execute(store.db);
      const times: number[] = [];
      // One round first, not counted: the first reads the tables into the cache.
      for (let round = -1; round < ROUNDS; round++) {
        const t0 = performance.now();
        await store.db
          .transaction()
          .execute(async (trx) => {
            await eraseCrew(trx, CREW);
            throw new Rollback();
          })
          .catch((err) => {
            if (!(err instanceof Rollback)) throw err;
          });
        if (round >= 0) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      medians.push(times[Math.floor(times.length / 2)]!);
    } finally {
      await store.close();
      await dropStore(dialect, name);
    }
  }
  SIZES.forEach((size, i) =>
    results.push([dialect, size.toLocaleString('en-US'), medians[i]!.toFixed(1), (medians[i]! / medians[0]!).toFixed(2)]),
  );
}
lines.push(machineLine(), '', `Median of ${ROUNDS} erasures (rolled back, after one not counted) per store and log size.`, '');
lines.push(table(['store', 'audit rows', 'erasure ms (median)', 'ratio to the smallest log'], results));
console.log(lines.join('\n'));
writeSection('Erasure beside the audit log', lines.join('\n'));
