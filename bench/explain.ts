// Query plans of the request path at scale. Generates EXPLAIN_CREW crew (default 100,000; 1,000
// vessels, 2 partners of one employer, so the partner's fleet is every live vessel) once into
// .bench/svc_explain_<crew>.db and the Postgres database svc_explain_<crew>, reused on later runs;
// ANALYZEs; sends each partner request through the app while recording the statements it sends;
// and prints each SELECT's plan (SQLite: EXPLAIN QUERY PLAN; Postgres: EXPLAIN (ANALYZE, BUFFERS))
// with its median time over a few runs. Then the same for every statement one delivery run sends
// beside an outbox of EXPLAIN_OUTBOX finished events (bench/support/delivery-path.ts; on Postgres
// writes are explained without ANALYZE). EXPLAIN_PATH=request or delivery runs one
// of the two. Writes the essentials into bench/results/.
// Run: npm run bench:explain
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../src/store/database.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { PG_ADMIN_URL, postgresAvailable } from './support/setup.ts';
import { postgresEssentials, sqliteEssentials } from './support/plans.ts';
import { DATA, label, recordRequests, type Dialect, type Sent } from './support/request-path.ts';
import { DUE, FINISHED, recordDelivery } from './support/delivery-path.ts';

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

const ROLLBACK = new Error('rolled back');

async function explain(db: Kysely<Database>, dialect: Dialect, q: Sent, analyze = true) {
  if (dialect === 'sqlite') {
    const r = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
    return sqliteEssentials(r.rows);
  }
  const options = analyze ? 'analyze, buffers, format json' : 'format json';
  const query = CompiledQuery.raw(`explain (${options}) ${q.sql}`, [...q.parameters]);
  // EXPLAIN ANALYZE runs the statement: in a transaction rolled back, should it write.
  let plan: unknown;
  await db
    .transaction()
    .execute(async (trx) => {
      plan = (await trx.executeQuery<{ 'QUERY PLAN': unknown }>(query)).rows[0]!['QUERY PLAN'];
      throw ROLLBACK;
    })
    .catch((err: unknown) => {
      if (err !== ROLLBACK) throw err;
    });
  return postgresEssentials(plan);
}

const isRead = (text: string) => /^\s*(select|with)\b/i.test(text) && !/\b(update|insert|delete)\b/i.test(text);

async function deliveryDialect(dialect: Dialect): Promise<string[][]> {
  const recorded = await recordDelivery(dialect);
  const { store, sent } = recorded;
  const rows: string[][] = [];
  try {
    await sql`analyze`.execute(store.db);
    console.log(`\n=== ${dialect}: one delivery run beside ${FINISHED} finished events (${sent.length} statement shapes)`);
    for (const q of sent) {
      // Reads are timed; writes change rows, so only their plan is read.
      const read = isRead(q.sql);
      const ms = read ? (await medianMs(store.db, q)).toFixed(2) : '';
      // A write's recorded values may no longer apply (an event inserted or claimed then): its plan alone.
      const plan = await explain(store.db, dialect, q, read);
      console.log(`\n--- ${q.sql.slice(0, 600)}\n${plan.text}${ms && `\nmedian of ${RUNS}: ${ms} ms`}`);
      rows.push([dialect, `\`${label(q.sql)}\``, plan.essentials, plan.rows, ms]);
    }
  } finally {
    await recorded.finish();
  }
  return rows;
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

const path = process.env.EXPLAIN_PATH ?? 'both';
const pgUp = await postgresAvailable();
if (!pgUp) process.stderr.write(`postgres: not reachable at ${new URL(PG_ADMIN_URL).host}, skipped\n`);
const dialects: Dialect[] = pgUp ? ['sqlite', 'postgres'] : ['sqlite'];

if (path !== 'delivery') {
  const rows: string[][] = [];
  for (const dialect of dialects) rows.push(...(await runDialect(dialect)));
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
}

if (path !== 'request') {
  const rows: string[][] = [];
  for (const dialect of dialects) rows.push(...(await deliveryDialect(dialect)));
  writeSection(
    'Query plans of delivery',
    `
Command: \`EXPLAIN_PATH=delivery npm run bench:explain\` (\`EXPLAIN_OUTBOX\`, \`EXPLAIN_OUTBOX_DUE\` to change the sizes).
Machine: ${machineLine()}. Data: the store of \`npm run bench:delivery\`'s outbox case, 10 partners' endpoints and
${FINISHED.toLocaleString('en')} finished events (delivered, one in 20 dead, each with its attempt), then \`ANALYZE\`. One
delivery run of ${DUE.toLocaleString('en')} new events is recorded, ${DUE.toLocaleString('en')} more are made due, and every
statement shape the run sent is explained (SQLite: EXPLAIN QUERY PLAN; Postgres: EXPLAIN (ANALYZE, BUFFERS) for reads,
writes without ANALYZE); reads are timed as the median of ${RUNS} runs. "rows" is what Postgres's scans read.

${table(['store', 'statement', 'plan', 'rows', 'ms'], rows)}
`,
  );
}
