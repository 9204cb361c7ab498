// Named (prepared) against unnamed statements on Postgres, in the same run: the SELECTs the
// partner requests send (recorded as in bench/explain.ts, on its data set), replayed on one
// connection each way, in alternating rounds. Reports per statement the client's wall time and the
// CPU time of the Postgres backend that served it (/proc/<pid>/stat: the server must be local).
// Run: npx tsx bench/pg-prepared.ts (PREPARED_ROUNDS, PREPARED_REPEAT to change the counts)
import { readFileSync } from 'node:fs';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/store/database.ts';
import { kyselyPool } from '../src/store/dialects/pg-pool.ts';
import { machineLine, table } from './support/report.ts';
import { label, recordRequests, type Sent } from './support/request-path.ts';

const ROUNDS = Number(process.env.PREPARED_ROUNDS ?? 5);
const REPEAT = Number(process.env.PREPARED_REPEAT ?? 100);
const TICK_MS = 10; // USER_HZ = 100 on Linux

function backendCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
}

async function oneConnection(url: string, named: boolean) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: named ? kyselyPool(pool) : pool }) });
  const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
  return { db, pid };
}

const { store, url, requests } = await recordRequests('postgres');
await store.close();
const statements = new Map<string, Sent>();
for (const r of requests) for (const q of r.selects) statements.set(q.sql, q);
const ways = { unnamed: await oneConnection(url, false), named: await oneConnection(url, true) };
type Way = keyof typeof ways;
const totals = new Map<string, Record<Way, { wallMs: number[]; serverMs: number }>>();
for (const q of statements.keys()) totals.set(q, { unnamed: { wallMs: [], serverMs: 0 }, named: { wallMs: [], serverMs: 0 } });
const clientCpu: Record<Way, number> = { unnamed: 0, named: 0 };

for (let round = 0; round < ROUNDS; round++) {
  const order: Way[] = round % 2 === 0 ? ['unnamed', 'named'] : ['named', 'unnamed'];
  for (const way of order) {
    const { db, pid } = ways[way];
    for (const q of statements.values()) {
      const compiled = CompiledQuery.raw(q.sql, [...q.parameters]);
      const cpu0 = process.cpuUsage();
      const server0 = backendCpuMs(pid);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < REPEAT; i++) await db.executeQuery(compiled);
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      const cpu = process.cpuUsage(cpu0);
      const t = totals.get(q.sql)![way];
      t.wallMs.push(wall / REPEAT);
      t.serverMs += backendCpuMs(pid) - server0;
      clientCpu[way] += (cpu.user + cpu.system) / 1000;
    }
  }
}
for (const w of Object.values(ways)) await w.db.destroy();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const n = ROUNDS * REPEAT;
const rows = [...totals].map(([text, t]) => [
  `\`${label(text)}\``,
  median(t.unnamed.wallMs).toFixed(3),
  median(t.named.wallMs).toFixed(3),
  `${Math.round((median(t.named.wallMs) / median(t.unnamed.wallMs)) * 100)}%`,
  ((t.unnamed.serverMs / n) * 1000).toFixed(0),
  ((t.named.serverMs / n) * 1000).toFixed(0),
]);
const sum = (way: Way) => [...totals.values()].reduce((s, t) => s + median(t[way].wallMs), 0);
const serverSum = (way: Way) => [...totals.values()].reduce((s, t) => s + t[way].serverMs, 0);
console.log(`Machine: ${machineLine()}; ${statements.size} statements × ${REPEAT} × ${ROUNDS} rounds each way, one connection each`);
console.log(table(['statement', 'unnamed ms', 'named ms', 'named ÷ unnamed', 'unnamed server µs', 'named server µs'], rows));
console.log(
  `all statements once: ${sum('unnamed').toFixed(2)} ms unnamed, ${sum('named').toFixed(2)} ms named (${Math.round((sum('named') / sum('unnamed')) * 100)}%); ` +
    `server CPU ${serverSum('unnamed')} vs ${serverSum('named')} ms; client CPU ${clientCpu.unnamed.toFixed(0)} vs ${clientCpu.named.toFixed(0)} ms`,
);
