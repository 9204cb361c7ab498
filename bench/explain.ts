// Query plans of the request path at scale. Generates EXPLAIN_CREW crew (default 100,000; 1,000
// vessels, 2 partners of one employer, so the partner's fleet is every live vessel) once into
// .bench/svc_explain_<crew>.db and the Postgres database svc_explain_<crew>, reused on later runs;
// ANALYZEs; sends each partner request through the app while recording the statements it sends;
// and prints each SELECT's plan (SQLite: EXPLAIN QUERY PLAN; Postgres: EXPLAIN (ANALYZE, BUFFERS))
// with its median time over a few runs. Writes the essentials into bench/results/.
// Run: npm run bench:explain
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../src/store/database.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { PG_ADMIN_URL, postgresAvailable } from './support/setup.ts';
import { postgresEssentials, sqliteEssentials } from './support/plans.ts';
import { DATA, label, recordRequests, type Dialect, type Sent } from './support/request-path.ts';

const RUNS = 7;

async function medianMs(db: Kysely<Database>, q: Sent): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await db.executeQuery(CompiledQuery.raw(q.sql, [...q.parameters]));
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[RUNS >> 1]!;
}

async function explain(db: Kysely<Database>, dialect: Dialect, q: Sent) {
  if (dialect === 'sqlite') {
    const r = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
    return sqliteEssentials(r.rows);
  }
  const r = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
    CompiledQuery.raw(`explain (analyze, buffers, format json) ${q.sql}`, [...q.parameters]),
  );
  return postgresEssentials(r.rows[0]!['QUERY PLAN']);
}

async function runDialect(dialect: Dialect): Promise<string[][]> {
  const { store, requests } = await recordRequests(dialect);
  const rows: string[][] = [];
  try {
    await sql`analyze`.execute(store.db);
    for (const r of requests) {
      console.log(`\n=== ${dialect}: ${r.name} (${r.steady} statements in steady state; writes: ${r.writes.join(', ') || 'none'})`);
      for (const q of r.selects) {
        const ms = await medianMs(store.db, q);
        const plan = await explain(store.db, dialect, q);
        console.log(`\n--- ${q.sql}\n${plan.text}\nmedian of ${RUNS}: ${ms.toFixed(2)} ms`);
        rows.push([dialect, r.name, `\`${label(q.sql)}\``, plan.essentials, plan.rows, ms.toFixed(2)]);
      }
    }
  } finally {
    await store.close();
  }
  return rows;
}

const rows = [...(await runDialect('sqlite'))];
if (await postgresAvailable()) rows.push(...(await runDialect('postgres')));
else process.stderr.write(`postgres: not reachable at ${new URL(PG_ADMIN_URL).host}, skipped\n`);

writeSection(
  'Query plans of the request path',
  `
Command: \`npm run bench:explain\` (\`EXPLAIN_CREW\` to change the size). Machine: ${machineLine()}. Data:
\`${DATA}\` (both partners customers of one employer: the fleet is every live vessel), then \`ANALYZE\`. Each
partner request is sent through the app twice; every SELECT either call sent is explained (SQLite: EXPLAIN QUERY
PLAN; Postgres: EXPLAIN (ANALYZE, BUFFERS)), and timed as the median of ${RUNS} runs through the store driver.
"rows" is what Postgres's scans read (actual rows, and rows filters removed, times loops). The full plans are
printed by the script.

${table(['store', 'request', 'statement', 'plan', 'rows', 'ms'], rows)}
`,
);
