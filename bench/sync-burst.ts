// The whole of `svc sync` at scale, the real command line on a generated fleet: the first (full)
// run, then the run after 30 days of calendar (the burst: every document the month expired or
// brought into the window), delivered to a local receiver that answers 200 at once.
// Run: npm run bench:sync-burst. BENCH_SYNC_CREW: fleet sizes, comma separated (default
// 100000,300000); BENCH_SYNC_STORES: postgres,sqlite (default both, Postgres first);
// BENCH_SYNC_MILLION=1 adds 1,000,000 crew on Postgres; BENCH_SYNC_KEEP=1 keeps the stores
// (named <BENCH_SYNC_DB>_<crew>, default svc_bench_burst_<crew>) and the generated data beside them
// (<name>_seed), which later runs with BENCH_SYNC_KEEP=1 copy instead of generating again;
// BENCH_SYNC_SEED_ONLY=1 generates (or finds) those data sets and runs nothing; BENCH_SYNC_BUDGET_S:
// the delivery budget of each run (default 3600).
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { activeEndpoints, dropStore, freshStore, PG_ADMIN_URL, postgresAvailable, seed, storeUrl } from './support/setup.ts';
import { openStore } from '../src/store/connect.ts';
import { svcSync, type SvcRun } from './support/svc-run.ts';

const SIZES = (process.env.BENCH_SYNC_CREW ?? '100000,300000').split(',').map(Number);
const STORES = (process.env.BENCH_SYNC_STORES ?? 'postgres,sqlite').split(',') as Array<'postgres' | 'sqlite'>;
const MILLION = process.env.BENCH_SYNC_MILLION === '1';
const SEED_ONLY = process.env.BENCH_SYNC_SEED_ONLY === '1';
const KEEP = process.env.BENCH_SYNC_KEEP === '1' || SEED_ONLY;
const PREFIX = process.env.BENCH_SYNC_DB ?? 'svc_bench_burst';
const DOCS = 10;
const PARTNERS = 20;
const VESSELS = 1000;
const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-12-22T10:00:00.000Z';
/**
 * Long enough that the burst is delivered whole (1 h, unless BENCH_SYNC_BUDGET_S says otherwise):
 * the figure is the burst's cost, not the budget's.
 */
const WHOLE_BURST_BUDGET_S = 3600;
const BUDGET_S = Number(process.env.BENCH_SYNC_BUDGET_S ?? WHOLE_BURST_BUDGET_S);
const RUN_ENV = { SVC_SYNC_DELIVERY_BUDGET_MS: String(BUDGET_S * 1000) };

interface Case {
  store: 'postgres' | 'sqlite';
  crew: number;
  seedS: number;
  full: SvcRun;
  burst: SvcRun;
  load: string;
}

const load = () => loadavg()[0]!.toFixed(1);

const SEEDED = 'svc bench data set, generated whole in ';

/** How long a kept data set took to generate, or null when it is not there whole (a generation stopped half-way is not marked). */
async function wholeSeedS(store: 'postgres' | 'sqlite', seedName: string): Promise<number | null> {
  let mark: string | null;
  if (store === 'sqlite') {
    const file = `.bench/${seedName}.whole`;
    mark = existsSync(`.bench/${seedName}.db`) && existsSync(file) ? readFileSync(file, 'utf8') : null;
  } else {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    const r = await client.query<{ d: string | null }>(
      `select shobj_description(oid, 'pg_database') as d from pg_database where datname = $1`,
      [seedName],
    );
    await client.end();
    mark = r.rows[0]?.d ?? null;
  }
  return mark?.startsWith(SEEDED) ? Number(mark.slice(SEEDED.length)) : null;
}

async function markWhole(store: 'postgres' | 'sqlite', seedName: string, seedS: number): Promise<void> {
  const mark = `${SEEDED}${seedS.toFixed(1)}`;
  if (store === 'sqlite') return writeFileSync(`.bench/${seedName}.whole`, mark);
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  await client.query(`comment on database ${seedName} is '${mark}'`);
  await client.end();
}

/**
 * The generated data set of a size: with KEEP, `<name>_seed`, generated once (when it is not there
 * whole) and copied to `<name>` for each run (Postgres: a file copy of the template database);
 * otherwise generated straight into `<name>`. `seedS`: the seconds its generation took, then or when kept.
 */
async function seededStore(store: 'postgres' | 'sqlite', crew: number): Promise<{ url: string; seedS: number }> {
  const name = `${PREFIX}_${crew}`;
  const seedName = KEEP ? `${name}_seed` : name;
  let seedS = KEEP ? await wholeSeedS(store, seedName) : null;
  if (seedS === null) {
    const { url } = await freshStore(store, seedName);
    process.stderr.write(`${store} ${crew}: generating ${crew} crew, ${crew * DOCS} documents, ${PARTNERS} partners (load ${load()})\n`);
    const started = performance.now();
    const s = await seed(url, { crew, vessels: VESSELS, partners: PARTNERS, docsPerCrew: DOCS, seed: 2 }, new Date(NOW));
    await s.close();
    seedS = (performance.now() - started) / 1000;
    process.stderr.write(`${store} ${crew}: generated in ${seedS.toFixed(0)} s (load ${load()})\n`);
    if (!KEEP) return { url, seedS };
    await markWhole(store, seedName, seedS);
  }
  if (SEED_ONLY) return { url: storeUrl(store, seedName), seedS };
  await dropStore(store, name);
  if (store === 'sqlite') copyFileSync(`.bench/${seedName}.db`, `.bench/${name}.db`);
  else {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    await client.query(`create database ${name} template ${seedName} strategy file_copy`);
    await client.end();
  }
  return { url: storeUrl(store, name), seedS };
}

async function runCase(store: 'postgres' | 'sqlite', crew: number, receiverUrl: string): Promise<Case> {
  const name = `${PREFIX}_${crew}`;
  const loadAtStart = load();
  const { url, seedS } = await seededStore(store, crew);
  const s = await openStore(url);
  await activeEndpoints(s, receiverUrl, NOW);
  await s.close();
  const line = (what: string, r: SvcRun) => {
    const p = r.summary.phases;
    process.stderr.write(
      `  ${what}: ${r.wallS.toFixed(1)} s, ${r.summary.totals.created} events (${r.summary.totals.delivered} delivered), read ${p.read_seconds} diff ${p.diff_seconds} ` +
        `write ${p.write_seconds} deliver ${p.deliver_seconds} s (${p.deliveries_per_second}/s), peak RSS ${r.maxRssMb.toFixed(0)} MB, load ${load()}\n`,
    );
  };
  const full = await svcSync(url, NOW, ['--full'], RUN_ENV);
  line('full run', full);
  const burst = await svcSync(url, LATER, [], RUN_ENV);
  line('30 days later', burst);
  if (!KEEP) await dropStore(store, name);
  return { store, crew, seedS, full, burst, load: `${loadAtStart}–${load()}` };
}

const cases: Case[] = [];
const receiver = await startChild([], 'bench/support/receiver-child.ts');
try {
  const receiverUrl = `http://127.0.0.1:${receiver.port}/hook`;
  const pg = await postgresAvailable();
  for (const store of STORES) {
    if (store === 'postgres' && !pg) {
      process.stderr.write('Postgres does not answer: its half is skipped\n');
      continue;
    }
    const sizes = store === 'postgres' && MILLION ? [...SIZES, 1_000_000] : SIZES;
    for (const crew of sizes) {
      if (SEED_ONLY) await seededStore(store, crew);
      else cases.push(await runCase(store, crew, receiverUrl));
    }
  }
} finally {
  await receiver.stop();
}

const s = (n: number) => n.toFixed(1);
const rows = cases.map((c) => {
  const p = c.burst.summary.phases;
  const events = c.burst.summary.totals.created;
  return [
    c.store,
    c.crew.toLocaleString('en'),
    s(c.seedS),
    s(c.full.wallS),
    c.full.maxRssMb.toFixed(0),
    events,
    s(c.burst.wallS),
    p.read_seconds!,
    p.diff_seconds!,
    p.write_seconds!,
    p.deliver_seconds!,
    p.deliveries_per_second!,
    ((1e6 * c.burst.wallS) / Math.max(1, events)).toFixed(0),
    c.burst.maxRssMb.toFixed(0),
    c.load,
  ];
});
/** How the burst's time grows with its events between the smallest and largest size of a store: 1 is linear. */
const growth = STORES.flatMap((store) => {
  const mine = cases.filter((c) => c.store === store);
  if (mine.length < 2) return [];
  const [a, b] = [mine[0]!, mine.at(-1)!];
  const exp = Math.log(b.burst.wallS / a.burst.wallS) / Math.log(b.burst.summary.totals.created / a.burst.summary.totals.created);
  const rss = b.burst.maxRssMb / a.burst.maxRssMb;
  return [
    `- ${store}, ${a.crew.toLocaleString('en')} → ${b.crew.toLocaleString('en')} crew: burst time grows as events^${exp.toFixed(2)}; peak RSS ×${rss.toFixed(2)}.`,
  ];
});

const body = `Command: \`${BUDGET_S !== WHOLE_BURST_BUDGET_S ? `BENCH_SYNC_BUDGET_S=${BUDGET_S} ` : ''}BENCH_SYNC_CREW=${SIZES.join(',')} BENCH_SYNC_STORES=${STORES.join(',')}${MILLION ? ' BENCH_SYNC_MILLION=1' : ''}${KEEP ? ' BENCH_SYNC_KEEP=1' : ''} npm run bench:sync-burst\`.
Machine: ${machineLine()}, shared. Data: \`svc fixtures generate --crew N --vessels ${VESSELS} --partners ${PARTNERS} --docs-per-crew ${DOCS}\`
with an active endpoint for every partner at a local receiver answering 200 at once. Each run is \`bin/svc sync --json\` in
its own process under GNU time (\`SVC_NOW\` = ${NOW}, then ${LATER}; delivery budget ${BUDGET_S} s${BUDGET_S >= WHOLE_BURST_BUDGET_S ? ', the most it takes, so the burst is delivered whole' : ''}):
"full run" is the first run (\`--full\`, baselines, nothing sent), "burst" the run 30 days later. The phase seconds are the
run summary's (\`phases\`, docs/operations.md "Where a run's time went"); "µs/event" is the burst's wall time over its
events; "seed s" is generating and loading the data. "load" is the 1-minute load average at the case's start and end.

${table(
  [
    'store',
    'crew',
    'seed s',
    'full run s',
    'full peak RSS MB',
    'burst events',
    'burst s',
    'read s',
    'diff s',
    'write s',
    'deliver s',
    'deliveries/s',
    'µs/event',
    'burst peak RSS MB',
    'load',
  ],
  rows,
)}

${growth.join('\n')}`;
// Generating alone measures nothing: the last table stays.
if (!SEED_ONLY) {
  writeSection('Sync bursts at scale', body);
  console.log(body);
}
