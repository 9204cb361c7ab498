// The whole of `svc sync` at scale, the real command line on a generated fleet: the first (full)
// run, then the run after 30 days of calendar (the burst: every document the month expired or
// brought into the window), delivered to a local receiver that answers 200 at once.
// Run: npm run bench:sync-burst. BENCH_SYNC_CREW: fleet sizes, comma separated (default
// 100000,300000); BENCH_SYNC_STORES: postgres,sqlite (default both, Postgres first);
// BENCH_SYNC_MILLION=1 adds 1,000,000 crew on Postgres; BENCH_SYNC_KEEP=1 keeps the stores
// (named <BENCH_SYNC_DB>_<crew>, default svc_bench_burst_<crew>).
import { loadavg } from 'node:os';
import { EVENT_TYPES } from '../src/domain/vocabulary.ts';
import { listPartners } from '../src/store/repositories/partners-repo.ts';
import { insertEndpoint } from '../src/store/repositories/webhook-endpoints-repo.ts';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { dropStore, freshStore, postgresAvailable, seed } from './support/setup.ts';
import { svcSync, type SvcRun } from './support/svc-run.ts';

const SIZES = (process.env.BENCH_SYNC_CREW ?? '100000,300000').split(',').map(Number);
const STORES = (process.env.BENCH_SYNC_STORES ?? 'postgres,sqlite').split(',') as Array<'postgres' | 'sqlite'>;
const MILLION = process.env.BENCH_SYNC_MILLION === '1';
const KEEP = process.env.BENCH_SYNC_KEEP === '1';
const PREFIX = process.env.BENCH_SYNC_DB ?? 'svc_bench_burst';
const DOCS = 10;
const PARTNERS = 20;
const VESSELS = 1000;
const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-12-22T10:00:00.000Z';
/** Long enough that the burst is delivered whole: the figure is the burst's cost, not the budget's. */
const RUN_ENV = { SVC_SYNC_DELIVERY_BUDGET_MS: String(3_600_000) };

interface Case {
  store: 'postgres' | 'sqlite';
  crew: number;
  seedS: number;
  full: SvcRun;
  burst: SvcRun;
  load: string;
}

const load = () => loadavg()[0]!.toFixed(1);

async function runCase(store: 'postgres' | 'sqlite', crew: number, receiverUrl: string): Promise<Case> {
  const name = `${PREFIX}_${crew}`;
  const { url } = await freshStore(store, name);
  const loadAtStart = load();
  process.stderr.write(`${store} ${crew}: seeding ${crew} crew, ${crew * DOCS} documents, ${PARTNERS} partners (load ${loadAtStart})\n`);
  const seeded = performance.now();
  const s = await seed(url, { crew, vessels: VESSELS, partners: PARTNERS, docsPerCrew: DOCS, seed: 2 }, new Date(NOW));
  for (const p of await listPartners(s.db))
    await insertEndpoint(s.db, {
      endpointId: `whe_${p.partnerId}`,
      partnerId: p.partnerId,
      url: receiverUrl,
      subscribedEvents: [...EVENT_TYPES],
      secret: 'whsec_bench',
      status: 'active',
      createdAt: NOW,
      updatedAt: NOW,
    });
  await s.close();
  const seedS = (performance.now() - seeded) / 1000;
  const line = (what: string, r: SvcRun) => {
    const p = r.summary.phases;
    process.stderr.write(
      `  ${what}: ${r.wallS.toFixed(1)} s, ${r.summary.totals.created} events, read ${p.read_seconds} diff ${p.diff_seconds} ` +
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
    for (const crew of sizes) cases.push(await runCase(store, crew, receiverUrl));
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

const body = `Command: \`BENCH_SYNC_CREW=${SIZES.join(',')} BENCH_SYNC_STORES=${STORES.join(',')}${MILLION ? ' BENCH_SYNC_MILLION=1' : ''} npm run bench:sync-burst\`.
Machine: ${machineLine()}, shared. Data: \`svc fixtures generate --crew N --vessels ${VESSELS} --partners ${PARTNERS} --docs-per-crew ${DOCS}\`
with an active endpoint for every partner at a local receiver answering 200 at once. Each run is \`bin/svc sync --json\` in
its own process under GNU time (\`SVC_NOW\` = ${NOW}, then ${LATER}; delivery budget 1 h, the most it takes, so the burst is delivered whole):
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
writeSection('Sync bursts at scale', body);
console.log(body);
