// Partner calls beside a large `svc fixtures load` into the served store: calls/s, p50/p99 and 5xx
// before and during the load, and whether every call got its audit row. Run: npm run bench:load-beside-traffic
// Env: BENCH_LOAD_DOCS (documents the load writes, default 150,000), BENCH_SECONDS (the phase before
// the load), BENCH_LOAD_CALLERS (calls in flight), BENCH_LOAD_STORES (sqlite,postgres). A run with
// other sizes or stores prints its figures but does not rewrite bench/results/.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { dropStore, freshStore, partnerKey, postgresAvailable, seed } from './support/setup.ts';
// The fault test and this measurement write the same file (test/faults/load-beside-traffic.test.ts).
import { writeBulkDocumentsFixture } from '../test/support/bulk-fixture.ts';
import type { Store } from '../src/store/connect.ts';

const DOCUMENTS = Number(process.env.BENCH_LOAD_DOCS ?? 150_000);
const BEFORE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CALLERS = Number(process.env.BENCH_LOAD_CALLERS ?? 8);
const STORES = (process.env.BENCH_LOAD_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const DEFAULTS = DOCUMENTS === 150_000 && STORES.includes('sqlite') && STORES.includes('postgres');
const CREW = 500;
const PATHS = ['/api/v2/partners/me', '/api/v2/employers/me/fleet?limit=50', '/api/v2/employers/me/vessels'];
const SVC = fileURLToPath(new URL('../bin/svc', import.meta.url));

interface Phase {
  calls: number;
  seconds: number;
  latencies: number[];
  status5xx: number;
  otherNon200: number;
}

/** Calls the server from CALLERS loops, one call after another each, until `until()` says stop. */
async function traffic(port: number, key: string, until: () => boolean): Promise<Phase> {
  const dispatcher = new Agent({ connections: CALLERS, keepAliveTimeout: 60_000 });
  const phase: Phase = { calls: 0, seconds: 0, latencies: [], status5xx: 0, otherNon200: 0 };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, w) => {
      for (let i = w; !until(); i += CALLERS) {
        const t = performance.now();
        const res = await request(`http://127.0.0.1:${port}${PATHS[i % PATHS.length]}`, {
          headers: { authorization: `Bearer ${key}` },
          dispatcher,
        });
        await res.body.dump();
        phase.latencies.push(performance.now() - t);
        phase.calls++;
        if (res.statusCode >= 500) phase.status5xx++;
        else if (res.statusCode !== 200) phase.otherNon200++;
      }
    }),
  );
  phase.seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  return phase;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function phaseRow(dialect: string, name: string, p: Phase): string[] {
  const sorted = [...p.latencies].sort((a, b) => a - b);
  return [
    dialect,
    name,
    String(p.calls),
    (p.calls / p.seconds).toFixed(0),
    `${quantile(sorted, 0.5).toFixed(1)} / ${quantile(sorted, 0.99).toFixed(1)}`,
    String(p.status5xx),
    String(p.otherNon200),
  ];
}

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<{ rows: string[][]; notes: string }> {
  const name = 'svc_bench_load_beside';
  const { url } = await freshStore(dialect, name);
  const store = await seed(url, { crew: CREW, vessels: 4, partners: 1, docsPerCrew: 10, seed: 1 });
  const key = await partnerKey(store, 'gen_ptn_000');
  const bulk = writeBulkDocumentsFixture(DOCUMENTS);
  const svc = await startChild(['svc', url]);
  try {
    const warm = await request(`http://127.0.0.1:${svc.port}${PATHS[1]}`, { headers: { authorization: `Bearer ${key}` } });
    if (warm.statusCode !== 200) throw new Error(`warm-up call: ${warm.statusCode} ${await warm.body.text()}`);
    await warm.body.dump();
    // Unmeasured calls first, so the measured phase before the load does not include the server's warm-up.
    const warmEnds = performance.now() + 2000;
    const warmUp = await traffic(svc.port, key, () => performance.now() >= warmEnds);

    const beforeEnds = performance.now() + BEFORE_SECONDS * 1000;
    const before = await traffic(svc.port, key, () => performance.now() >= beforeEnds);

    process.stderr.write(`${dialect}: svc fixtures load of ${DOCUMENTS} documents\n`);
    const loadStarted = performance.now();
    const load = spawn(SVC, ['fixtures', 'load', '--db', url, bulk.path], { stdio: ['ignore', 'pipe', 'inherit'] });
    let loaded = '';
    load.stdout.setEncoding('utf8').on('data', (c: string) => (loaded += c));
    let loading = true;
    const exited = once(load, 'exit').then(([code]) => {
      loading = false;
      return code as number | null;
    });
    const during = await traffic(svc.port, key, () => !loading);
    const code = await exited;
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    if (code !== 0) throw new Error(`svc fixtures load exited with ${code}`);

    // Rows are written in the background: wait (bounded) for the last batches.
    // The store is fresh: its audit rows are those of this run's calls, warm-up included.
    const calls = 1 + warmUp.calls + before.calls + during.calls;
    const deadline = performance.now() + 120_000;
    let rows = await countAudit(store);
    while (rows < calls && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      rows = await countAudit(store);
    }
    const notes =
      `${dialect}: the load took ${loadSeconds.toFixed(1)} s (${loaded.trim().replace(/^loaded [^:]+: /, '')}); ` +
      `audit rows for the ${calls} calls of the run (warm-up included): ${rows}${rows === calls ? ' (one each)' : ' (NOT one each)'}.`;
    process.stderr.write(`  ${notes}\n`);
    return { rows: [phaseRow(dialect, 'before the load', before), phaseRow(dialect, 'during the load', during)], notes };
  } finally {
    await svc.stop();
    await store.close();
    bulk.dispose();
    await dropStore(dialect, name);
  }
}

async function countAudit(store: Store): Promise<number> {
  const { n } = await store.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

const loadAtStart = loadavg()[0]!.toFixed(1);
const results = STORES.includes('sqlite') ? [await runDialect('sqlite')] : [];
if (STORES.includes('postgres') && (await postgresAvailable())) results.push(await runDialect('postgres'));
else if (STORES.includes('postgres')) process.stderr.write('Postgres does not answer: its half is skipped\n');

const body = `Command: \`npm run bench:load-beside-traffic\`. Machine: ${machineLine()}. Machine load (1-minute load average,
the machine is shared): ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end. A \`svc\` server process over a
store seeded with \`svc fixtures generate --crew ${CREW} --vessels 4 --partners 1\`; ${CALLERS} callers in the benchmark process,
each one call after another, cycle through \`/partners/me\`, a fleet page of 50 and the vessels list with one partner key (every
call authenticated, rate-limited and audited as in production). After 2 s of unmeasured calls, ${BEFORE_SECONDS} s of calls alone, then the same calls
while \`svc fixtures load\` (its own process) writes a file of ${DOCUMENTS.toLocaleString('en')} documents over ${Math.ceil(DOCUMENTS / 20).toLocaleString('en')}
new crew members in one transaction, until the load exits. Latencies include the benchmark process's own client work; the two
phases share the two cores with the load, so compare them with each other.

${table(
  ['store', 'phase', 'calls', 'calls/s', 'p50 / p99 ms', '5xx', 'other non-200'],
  results.flatMap((r) => r.rows),
)}

${results.map((r) => `- ${r.notes}`).join('\n')}`;
if (DEFAULTS) writeSection('Calls beside a fixtures load', body);
console.log(body);
