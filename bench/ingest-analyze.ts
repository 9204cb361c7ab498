// The statistics refresh of an ingest run (src/services/ingest/ingest-stream.ts): the whole-store
// ANALYZE it ran before against the one it runs now (analyzeIngestTables), alternating on one
// store an ingest has grown (BENCH_CREW crew and their documents: 11 changes a crew member).
// Run: npx tsx bench/ingest-analyze.ts. Env: BENCH_CREW (default 5000), BENCH_ROUNDS (default 4),
// BENCH_STORES (postgres,sqlite), BENCH_PER_TABLE=1 (each table's ANALYZE once, first).
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { openStore } from '../src/store/connect.ts';
import { migrateToLatest } from '../src/store/migrator.ts';
import { ingestStream } from '../src/services/ingest/ingest-stream.ts';
import { analyzeIngestTables, analyzeStore, INGEST_TABLES } from '../src/store/repositories/maintenance-repo.ts';
import type { Db } from '../src/store/database.ts';
import { crewLines, parentLines } from './support/ingest-feed.ts';
import { sql } from 'kysely';
import { dropStore, freshStore } from './support/setup.ts';

type Dialect = 'sqlite' | 'postgres';
const CREW = Number(process.env.BENCH_CREW ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const STORES = (process.env.BENCH_STORES ?? 'postgres,sqlite').split(',') as Dialect[];

async function* incoming(lines: Iterable<string>) {
  let n = 0;
  // A feed's item may hold several lines (a crew member and their documents).
  for (const chunk of lines) for (const text of chunk.split('\n')) if (text !== '') yield { origin: `bench:${++n}`, text };
}

async function timed(run: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await run();
  return (performance.now() - t0) / 1000;
}

const variants: Array<[string, (db: Db) => Promise<void>]> = [
  ['whole store (before)', analyzeStore],
  ['ingest tables (refresh)', analyzeIngestTables],
];

for (const dialect of STORES) {
  const name = `ingest_analyze_${process.pid}`;
  const { url } = await freshStore(dialect, name);
  const store = await openStore(url);
  try {
    await migrateToLatest(store.db);
    const deps = { clock: () => new Date('2026-11-22T10:00:00.000Z'), holdMs: 3_600_000 };
    await ingestStream(store.db, incoming(parentLines(CREW)), deps);
    const s = await ingestStream(store.db, incoming(crewLines(CREW)), deps);
    console.log(`${dialect}: ${s.counts.applied} changes applied, load ${loadavg()[0]!.toFixed(1)}`);
    if (process.env.BENCH_PER_TABLE)
      for (const t of [...INGEST_TABLES, 'changes'])
        console.log(t, (await timed(async () => void (await sql`analyze ${sql.table(t)}`.execute(store.db)))).toFixed(2));
    const times = new Map<string, number[]>(variants.map(([label]) => [label, []]));
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate the order each round so neither side always runs first.
      const order = r % 2 === 0 ? variants : [...variants].reverse();
      for (const [label, run] of order) times.get(label)!.push(await timed(() => run(store.db)));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const base = mean(times.get(variants[0]![0])!);
    for (const [label, xs] of times)
      console.log(
        `| ${dialect} | ${label} | ${xs.map((x) => x.toFixed(2)).join(', ')} | ${mean(xs).toFixed(2)} | ${((mean(xs) / base) * 100).toFixed(0)}% |`,
      );
    console.log(`load at the end ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await store.close();
    await dropStore(dialect, name);
  }
}
