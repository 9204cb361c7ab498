// `svc ingest` throughput against the store's own limit (issue 30): N crew with 10 documents each
// as NDJSON upserts, piped into `bin/svc ingest -` as a stream, on SQLite and Postgres; the limit is
// a bare multi-row INSERT of the same rows into the same tables (change-capture triggers included),
// measured in the same run in alternation with it. Also: one-field patches against whole-record
// upserts, peak RSS at two input sizes, and the diff stage of `svc sync` after 10,000 patches.
// Run: npm run bench:ingest. Env: BENCH_CREW (default 100000), BENCH_ROUNDS (alternations, default
// 2), BENCH_STORES (sqlite,postgres), BENCH_SMALL_CREW (the smaller size for RSS, default 10000),
// BENCH_CPU_PROF=DIR (write a CPU profile of each ingest into DIR), BENCH_UPSERTS_ONLY=1 (the upserts
// against the bare INSERT only: no patches, sync or second size; the report is that table).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { openStore } from '../src/store/connect.ts';
import { migrateToLatest } from '../src/store/migrator.ts';
import { runJsonChild } from './support/child.ts';
import type { DiffPhase } from './support/diff-phase.ts';
import { EVENT_TYPES } from '../src/domain/vocabulary.ts';
import { insertEndpoint } from '../src/store/repositories/webhook-endpoints-repo.ts';
import { bioLines, crewLines, crewRows, DOCS_PER_CREW, fleetLines, PARTNER, parentLines, spread } from './support/ingest-feed.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { dropStore, freshStore, postgresAvailable } from './support/setup.ts';

type Dialect = 'sqlite' | 'postgres';
const CREW = Number(process.env.BENCH_CREW ?? 100_000);
const SMALL = Math.min(CREW, Number(process.env.BENCH_SMALL_CREW ?? 10_000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',') as Dialect[];
const PROFILE_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const UPSERTS_ONLY = process.env.BENCH_UPSERTS_ONLY === '1';
const PATCHES = Math.min(10_000, CREW);
const NOW = '2026-11-22T10:00:00.000Z';
/** Crew members a transaction of the bare INSERT holds (1 + DOCS_PER_CREW rows each); statements of at most 500 rows. */
const BARE_TX_CREW = 500;
const STATEMENT_ROWS = 500;
const MiB = 1024;

interface IngestRun {
  seconds: number;
  changes: number;
  applied: number;
  rejected: number;
  rssMiB: number;
  cpuSeconds: number;
}

/** Pipes `lines` into `bin/svc ingest --json -` in its own process; wall time, the summary, peak RSS and CPU (from /usr/bin/time). */
async function ingest(url: string, lines: Iterable<string>, label: string): Promise<IngestRun> {
  const timing = join(mkdtempSync(join(tmpdir(), 'bench-ingest-')), 'time');
  // Profiled, the build bin/svc runs is started by node itself (Node 20 refuses --cpu-prof in NODE_OPTIONS); earlier runs built it.
  const svc =
    PROFILE_DIR && label.includes('-crew-')
      ? [
          process.execPath,
          '--cpu-prof',
          `--cpu-prof-dir=${PROFILE_DIR}`,
          `--cpu-prof-name=${label}.cpuprofile`,
          '.build/current/js/main.js',
        ]
      : ['bin/svc'];
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%M %U %S', '-o', timing, ...svc, '--db', url, 'ingest', '--json', '-'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  Readable.from(lines).pipe(child.stdin);
  const code = await exited;
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0 && code !== 65) throw new Error(`svc ingest exited ${code}`);
  const summary = JSON.parse(out) as { changes: number; applied: number; rejected: number; rejections: unknown[] };
  if (summary.rejected > 0) throw new Error(`${summary.rejected} rejected: ${JSON.stringify(summary.rejections.slice(0, 3))}`);
  const [rssKiB, user, system] = readFileSync(timing, 'utf8').trim().split(/\s+/).map(Number);
  rmSync(timing, { force: true });
  return {
    seconds,
    changes: summary.changes,
    applied: summary.applied,
    rejected: summary.rejected,
    rssMiB: rssKiB! / MiB,
    cpuSeconds: user! + system!,
  };
}

/** The same crew and document rows, inserted by multi-row INSERTs in transactions of BARE_TX_CREW crew; rows per second. */
async function bareInsert(url: string): Promise<number> {
  const store = await openStore(url);
  try {
    let ms = 0;
    for (let from = 0; from < CREW; from += BARE_TX_CREW) {
      const rows = crewRows(from, Math.min(CREW, from + BARE_TX_CREW), NOW);
      // Only the statements are timed: making the rows is the generator's work, not the store's.
      const started = performance.now();
      await store.db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.crew.length; i += STATEMENT_ROWS)
          await trx
            .insertInto('crew')
            .values(rows.crew.slice(i, i + STATEMENT_ROWS))
            .execute();
        for (let i = 0; i < rows.documents.length; i += STATEMENT_ROWS) {
          await trx
            .insertInto('documents')
            .values(rows.documents.slice(i, i + STATEMENT_ROWS))
            .execute();
        }
      });
      ms += performance.now() - started;
    }
    return (CREW * (1 + DOCS_PER_CREW)) / (ms / 1000);
  } finally {
    await store.close();
  }
}

/** A fresh, migrated store holding the parents the crew's changes refer to. */
async function prepared(dialect: Dialect, name: string, crew: number): Promise<string> {
  const { url } = await freshStore(dialect, name);
  const store = await openStore(url);
  await migrateToLatest(store.db);
  await store.close();
  await ingest(url, parentLines(crew), `${name}-parents`);
  return url;
}

const rate = (changes: number, seconds: number) => Math.round(changes / seconds);
const fmt = (n: number) => n.toLocaleString('en');

async function runDialect(dialect: Dialect) {
  const name = `svc_bench_ingest_${process.pid}`;
  const changes = CREW * (1 + DOCS_PER_CREW);
  // Empty runs: process start, store open and the migration check, paid by every run below (the quickest of three).
  const emptyStore = await prepared(dialect, name, 1);
  let startup = Infinity;
  for (let i = 0; i < 3; i++) startup = Math.min(startup, (await ingest(emptyStore, [], `${dialect}-empty-${i}`)).seconds);
  const alternation: Array<Array<string | number>> = [];
  const bareRun = async () => {
    const load = loadavg()[0]!.toFixed(1);
    const bare = await bareInsert(await prepared(dialect, name, CREW));
    alternation.push([dialect, 'bare INSERT', fmt(changes), fmt(Math.round(bare)), '', '', '', '', load]);
    process.stderr.write(`  ${alternation.at(-1)!.join('  ')}\n`);
    return bare;
  };
  let url = '';
  let before = await bareRun();
  for (let round = 1; round <= ROUNDS; round++) {
    const load = loadavg()[0]!.toFixed(1);
    url = await prepared(dialect, name, CREW);
    const run = await ingest(url, crewLines(CREW), `${dialect}-crew-${round}`);
    if (run.applied !== changes) throw new Error(`${run.applied} of ${changes} applied`);
    const svc = rate(changes, run.seconds - startup);
    const row = [
      dialect,
      'svc ingest',
      fmt(changes),
      fmt(svc),
      '',
      run.seconds.toFixed(1),
      run.cpuSeconds.toFixed(1),
      run.rssMiB.toFixed(0),
      load,
    ];
    alternation.push(row);
    process.stderr.write(`  ${row.join('  ')}\n`);
    // Against the mean of the bare runs either side of it.
    const after = await bareRun();
    row[4] = `${Math.round((200 * svc) / (before + after))}%`;
    before = after;
  }
  if (UPSERTS_ONLY) {
    await dropStore(dialect, name);
    return { alternation, oneField: [], sync: [], memory: [], startup, fleet: [dialect, '', ''] };
  }
  // The last round's store carries on: assignments and consents (so a sync has pairs), then the patch rounds and the sync.
  const fleet = await ingest(url, fleetLines(CREW), `${dialect}-fleet`);
  process.stderr.write(`  fleet: ${fmt(fleet.changes)} changes in ${fleet.seconds.toFixed(1)} s\n`);
  const ids = spread(CREW, PATCHES);
  const oneField: Array<Array<string | number>> = [];
  let version = 2;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const op of ['patch', 'upsert'] as const) {
      const run = await ingest(url, bioLines(ids, op, version++), `${dialect}-${op}-${round}`);
      oneField.push([
        dialect,
        round,
        op,
        fmt(run.changes),
        (run.seconds - startup).toFixed(2),
        fmt(rate(run.changes, run.seconds - startup)),
      ]);
      process.stderr.write(`  ${oneField.at(-1)!.join('  ')}\n`);
    }
  }
  const store = await openStore(url);
  await insertEndpoint(store.db, {
    endpointId: 'whe_bench',
    partnerId: PARTNER,
    url: 'https://receiver.invalid/hook',
    subscribedEvents: [...EVENT_TYPES],
    secret: 'whsec_bench',
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  });
  await store.close();
  const baseline = await runJsonChild<DiffPhase>('bench/support/diff-phase.ts', [url, NOW]);
  await ingest(url, bioLines(ids, 'patch', version), `${dialect}-patch-sync`);
  const after = await runJsonChild<DiffPhase>('bench/support/diff-phase.ts', [url, NOW]);
  const sync: Array<Array<string | number>> = [
    [dialect, 'first run (full)', fmt(baseline.pairs), (baseline.ms / 1000).toFixed(2), '100%', baseline.events],
    [
      dialect,
      `after ${fmt(ids.length)} bio patches`,
      fmt(after.pairs),
      (after.ms / 1000).toFixed(2),
      `${((100 * after.ms) / baseline.ms).toFixed(1)}%`,
      after.events,
    ],
  ];
  // Peak RSS at the smaller size, on a fresh store, against the last full-size round's.
  const small = SMALL < CREW ? await ingest(await prepared(dialect, name, SMALL), crewLines(SMALL), `${dialect}-small`) : null;
  for (const row of sync) process.stderr.write(`  ${row.join('  ')}\n`);
  const lastFull = alternation.filter((r) => r[1] === 'svc ingest').at(-1)!;
  const memory = [
    ...(small ? [[dialect, fmt(SMALL), fmt(small.changes), small.rssMiB.toFixed(0)]] : []),
    [dialect, fmt(CREW), fmt(changes), lastFull[7]!],
  ];
  for (const row of memory) process.stderr.write(`  RSS ${row.join('  ')}\n`);
  await dropStore(dialect, name);
  return {
    alternation,
    oneField,
    sync,
    memory,
    startup,
    fleet: [dialect, fmt(fleet.changes), fmt(rate(fleet.changes, fleet.seconds - startup))],
  };
}

const loadAtStart = loadavg()[0]!.toFixed(1);
const results = [];
for (const dialect of STORES) {
  if (dialect === 'postgres' && !(await postgresAvailable())) {
    process.stderr.write('Postgres does not answer: its half is skipped\n');
    continue;
  }
  process.stderr.write(`${dialect}: ${fmt(CREW)} crew, ${fmt(CREW * (1 + DOCS_PER_CREW))} changes\n`);
  results.push(await runDialect(dialect));
}
const upserts = `${table(
  ['store', 'run', 'rows or changes', 'per second', 'svc ÷ bare', 'wall s', 'CPU s', 'peak RSS MiB', 'load'],
  results.flatMap((r) => r.alternation),
)}`;
const body = `Command: \`npm run bench:ingest\` (\`BENCH_CREW=${CREW}\`, \`BENCH_ROUNDS=${ROUNDS}\`). Machine: ${machineLine()}. Load average
${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end (the machine is shared).

**Upserts against the store's limit.** ${fmt(CREW)} crew members, each followed by their ${DOCS_PER_CREW} documents (the demo's
records with new ids, without files): ${fmt(CREW * (1 + DOCS_PER_CREW))} changes, generated as a stream and piped into
\`bin/svc ingest --json -\` (the compiled build, its own process, batches of 500) on a fresh store. "changes/s" leaves out the time
of an empty run (process start, store open; ${results.map((r) => `${r.startup.toFixed(2)} s`).join(' and ')}). The limit: the same
crew and document rows (the converters \`svc ingest\` writes them with) inserted into the same tables of a fresh store, change-capture
triggers firing, by multi-row INSERTs of ${STATEMENT_ROWS} rows, ${BARE_TX_CREW} crew members a transaction, and nothing else (no
versions kept, no checks; only the statements timed, not making the rows). The two alternate, bare first and last; "svc ÷ bare"
is against the mean of the bare runs either side. Goal (issue 30): at least a third of the limit.

${upserts}

**One field per change.** On the last round's store: ${fmt(PATCHES)} crew members spread over it get a new bio, as a merge patch
(\`{"bio": …}\`) or as the whole record again, in turns. Goal: a patch at least as fast per change as an upsert.

${table(
  ['store', 'round', 'op', 'changes', 'wall s', 'changes/s'],
  results.flatMap((r) => r.oneField),
)}

Before them, an assignment and a consent for every crew member (so the sync below has pairs to diff):
${results.map((r) => `${r.fleet[0]} ${r.fleet[1]} changes at ${r.fleet[2]}/s`).join(', ')}.

**Peak RSS with input size** (\`/usr/bin/time\`'s maximum resident set of the \`svc ingest\` process). Goal: flat.

${table(
  ['store', 'crew', 'changes', 'peak RSS MiB'],
  results.flatMap((r) => r.memory),
)}

**A sync after ${fmt(PATCHES)} patches**: the diff stage of \`svc sync\` (bench/support/diff-phase.ts, as in "Sync at scale") once
after the load and once after ${fmt(PATCHES)} more bio patches, for the one customer partner with every crew member on its fleet
and consent.

${table(
  ['store', 'run', 'pairs diffed', 'wall s', '% of first run', 'events'],
  results.flatMap((r) => r.sync),
)}`;
if (UPSERTS_ONLY) {
  console.log(
    `Load average ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end. Startup: ${results
      .map((r) => `${r.startup.toFixed(2)} s`)
      .join(' and ')}.\n\n${upserts}`,
  );
} else {
  if (results.length === 2) writeSection('Ingestion', body);
  console.log(body);
}
