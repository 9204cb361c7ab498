// The diff of a 30-day burst split across processes by partner (`svc sync --diff-processes N`
// beside N-1 `svc sync --diff-worker`), against one process, on Postgres, in turns.
// Run: npm run bench:diff-split. BENCH_SPLIT_CREW (default 100000), BENCH_SPLIT_PARTNERS (6),
// BENCH_SPLIT_PROCESSES (1,2,3), BENCH_SPLIT_ROUNDS (2), BENCH_SPLIT_DB (database name prefix,
// default svc_bench_split), BENCH_SPLIT_CHANGE: `calendar` (default, the run 30 days later) or
// `catalogue` (the run right after `svc ingest` adds a requirement every role must meet: every
// partner's full diff, as any catalogue change). The generated fleet after its first (full) run is kept as a template
// database, <prefix>_tpl_<crew>_<partners>, made once; each case runs on a fresh copy of it.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { ROLES } from '../src/domain/catalogue.ts';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { activeEndpoints, PG_ADMIN_URL, seed, storeUrl } from './support/setup.ts';
import { svcSync } from './support/svc-run.ts';

const CREW = Number(process.env.BENCH_SPLIT_CREW ?? 100_000);
const PARTNERS = Number(process.env.BENCH_SPLIT_PARTNERS ?? 6);
const PROCESSES = (process.env.BENCH_SPLIT_PROCESSES ?? '1,2,3').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 2);
const PREFIX = process.env.BENCH_SPLIT_DB ?? 'svc_bench_split';
const VESSELS = 1000;
const DOCS = 10;
const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-12-22T10:00:00.000Z';
const CHANGE = process.env.BENCH_SPLIT_CHANGE ?? 'calendar';
if (CHANGE !== 'calendar' && CHANGE !== 'catalogue') throw new Error(`BENCH_SPLIT_CHANGE: calendar or catalogue, not ${CHANGE}`);
const TEMPLATE = `${PREFIX}_tpl_${CREW}_${PARTNERS}`;
const CASE = `${PREFIX}_case`;
/** The least budget there is: the figure is the diff's; delivery is another bench's (bench/delivery-bench.ts). */
const RUN_ENV = { SVC_SYNC_DELIVERY_BUDGET_MS: '1000' };

const load = () => loadavg()[0]!.toFixed(1);

async function admin<T>(query: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await query(client);
  } finally {
    await client.end();
  }
}

/** The generated fleet after its first run (nothing is sent for it), made once; each case points the endpoints at the receiver. */
async function ensureTemplate(): Promise<void> {
  const exists = await admin((c) => c.query('select 1 from pg_database where datname = $1', [TEMPLATE]));
  if (exists.rowCount) return;
  await admin((c) => c.query(`create database ${TEMPLATE}`));
  const url = storeUrl('postgres', TEMPLATE);
  const s = await seed(url, { crew: CREW, vessels: VESSELS, partners: PARTNERS, docsPerCrew: DOCS, seed: 2 }, new Date(NOW));
  await activeEndpoints(s, 'http://127.0.0.1:9/hook', NOW);
  await s.close();
  await svcSync(url, NOW, ['--full'], RUN_ENV);
}

/** Every role now requires a seafarer's record book, through `svc ingest` of a new requirement (docs/ingest.md). */
function changeCatalogue(url: string): void {
  const requirement = {
    group: 'certificate',
    title: "Seafarer's record book",
    category: 'identity',
    code: 'MLC A1.4',
    constraint: 'Valid 10 years at most',
    validity_years: 10,
    roles: ROLES,
    match: { category_codes: ['seaman_book'] },
    required: true,
  };
  const change = { entity: 'requirement', op: 'upsert', id: 'seaman_book', version: Date.now() * 1000, data: requirement };
  const run = spawnSync('bin/svc', ['ingest', '--json'], {
    input: `${JSON.stringify(change)}\n`,
    env: { ...process.env, SVC_DATABASE_URL: url, SVC_NOW: NOW, SVC_NOW_ALLOW_WRITES: '1', SVC_LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  const summary = run.status === 0 ? (JSON.parse(run.stdout) as { applied: number }) : null;
  if (summary?.applied !== 1) throw new Error(`svc ingest of the catalogue change exited ${run.status}: ${run.stdout}${run.stderr}`);
}

interface Case {
  processes: number;
  round: number;
  wallS: number;
  diffS: number;
  cpuS: number;
  events: number;
  load: string;
}

async function runCase(processes: number, round: number, receiverUrl: string): Promise<Case> {
  await admin(async (c) => {
    await c.query(`drop database if exists ${CASE} with (force)`);
    await c.query(`create database ${CASE} template ${TEMPLATE}`);
  });
  const url = storeUrl('postgres', CASE);
  const store = new pg.Client({ connectionString: url });
  await store.connect();
  await store.query('update webhook_endpoints set url = $1', [receiverUrl]);
  await store.end();
  if (CHANGE === 'catalogue') changeCatalogue(url);
  const runAt = CHANGE === 'catalogue' ? NOW : LATER;
  const loadAtStart = load();
  const workers = Array.from({ length: processes - 1 }, () => svcSync<{ shares: number[] }>(url, runAt, ['--diff-worker']));
  const lead = await svcSync(url, runAt, processes > 1 ? ['--diff-processes', String(processes)] : [], RUN_ENV);
  const joined = await Promise.all(workers);
  const p = lead.summary.phases;
  const c: Case = {
    processes,
    round,
    wallS: lead.wallS,
    diffS: p.read_seconds! + p.diff_seconds! + p.write_seconds!,
    cpuS: lead.cpuS + joined.reduce((sum, w) => sum + w.cpuS, 0),
    events: lead.summary.totals.created,
    load: `${loadAtStart}–${load()}`,
  };
  process.stderr.write(
    `${processes} process(es), round ${round}: diff ${c.diffS.toFixed(1)} s, run ${c.wallS.toFixed(1)} s, svc CPU ${c.cpuS.toFixed(1)} s, ` +
      `${c.events} events, workers' shares ${JSON.stringify(joined.map((j) => j.summary.shares))}, load ${c.load}\n`,
  );
  return c;
}

await ensureTemplate();
const cases: Case[] = [];
const receiver = await startChild([], 'bench/support/receiver-child.ts');
try {
  const receiverUrl = `http://127.0.0.1:${receiver.port}/hook`;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const n of round % 2 === 1 ? PROCESSES : [...PROCESSES].reverse()) cases.push(await runCase(n, round, receiverUrl));
  }
} finally {
  await receiver.stop();
}
await admin((c) => c.query(`drop database if exists ${CASE} with (force)`));

/** Each round's diff time of one process over that of N, in the round's order: the cases of a round ran one after another. */
const ratios = (n: number) =>
  cases
    .filter((c) => c.processes === n)
    .map((c) => cases.find((o) => o.round === c.round && o.processes === PROCESSES[0])!.diffS / c.diffS);
const rows = PROCESSES.map((n) => {
  const mine = cases.filter((c) => c.processes === n);
  return [
    n,
    mine.map((c) => c.diffS.toFixed(1)).join(', '),
    ratios(n)
      .map((r) => r.toFixed(2))
      .join(', '),
    mine.map((c) => c.cpuS.toFixed(1)).join(', '),
    mine.map((c) => c.wallS.toFixed(1)).join(', '),
    [...new Set(mine.map((c) => c.events))].join(', '),
    mine.map((c) => c.load).join(', '),
  ];
});
const CATALOGUE_RUN = "the run right after `svc ingest` of a catalogue change (a seafarer's record book required of every role)";
const body = `Command: \`BENCH_SPLIT_CREW=${CREW} BENCH_SPLIT_PARTNERS=${PARTNERS} BENCH_SPLIT_PROCESSES=${PROCESSES.join(',')} BENCH_SPLIT_ROUNDS=${ROUNDS}${CHANGE === 'catalogue' ? ' BENCH_SPLIT_CHANGE=catalogue' : ''} npm run bench:diff-split\`
(${new Date().toISOString().slice(0, 10)}). Machine: ${machineLine()}, shared. Postgres. Data: \`svc fixtures generate --crew ${CREW} --vessels ${VESSELS}
--partners ${PARTNERS} --docs-per-crew ${DOCS}\`, an active endpoint per partner, after its first run (\`--full\`, ${NOW}); each case is
${CHANGE === 'catalogue' ? CATALOGUE_RUN : 'the run 30 days later'} on a fresh copy of that database: \`bin/svc sync --json --diff-processes N\` beside N-1
\`bin/svc sync --diff-worker\`, started together, each in its own process (delivery budget 1 s: the figure is the diff's).
"diff s" is the run's diff stage (read + diff + write of its summary's phases), which ends when every share is done;
"run s" the whole run's wall time (its second of delivery to a local receiver answering 200 included). Cases ran in turns (1, 2, 3 processes, then 3, 2, 1, and so on); "load" is the 1-minute load
average at each case's start and end. "× one" is, per round, the diff time of one process over that of N (above 1: faster);
"svc CPU s" the user and system CPU of the N svc processes together (Postgres's not counted).

${table(['processes', 'diff s', '× one', 'svc CPU s', 'run s', 'events', 'load'], rows)}`;
writeSection(CHANGE === 'catalogue' ? 'A catalogue change split across processes' : 'The diff split across processes', body);
console.log(body);
