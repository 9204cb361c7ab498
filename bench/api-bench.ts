// API under load: autocannon on loopback, keep-alive, 32 connections, against `svc` in its own
// process, beside a bare Koa route serving the same JSON body from memory, the two taking turns
// (BENCH_ROUNDS rounds of each, medians). Both run through tsx (bench/support/child.ts).
// Run: npm run bench:api
// Env: BENCH_SECONDS (per run), BENCH_ROUNDS, BENCH_CREW, BENCH_API_DB (database / SQLite file name, so two runs
// need not share one), BENCH_API_CASES (parts of case names separated by `|`, as case names hold commas: only those run),
// BENCH_API_STORES (sqlite,postgres), BENCH_API_SVC_ARGS (extra node flags for the svc process,
// e.g. --cpu-prof), BENCH_API_REUSE=1 (keep the database of an earlier run with the same
// BENCH_API_DB and BENCH_CREW instead of generating it again), BENCH_API_TRACING=1 (the svc processes export
// their traces, as with OTEL_EXPORTER_OTLP_ENDPOINT set, to a collector in this process that takes
// and drops them: the cost of tracing, docs/operations.md "Traces"). A filtered or traced run prints its figures but does not rewrite bench/results/.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { openStore, type Store } from '../src/store/connect.ts';
import { freshStore, partnerKey, postgresAvailable, seed, storeUrl } from './support/setup.ts';
import { timeCall, walkList, type Walk } from './support/walks.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/**
 * svc and bare Koa take turns this many times per case: the machine is shared and its speed drifts
 * within seconds, so each round's ratio is of two runs made back to back, and the median is reported.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;
/** Crew members a rotating case takes in turn, one per call. */
const ROTATION = 20_000;
const CREW = Number(process.env.BENCH_CREW ?? 11_200); // ≈10,000 on live vessels (every 10th vessel is test-flagged)
const DB_NAME = process.env.BENCH_API_DB ?? 'svc_bench_api';
const CASE_FILTER = (process.env.BENCH_API_CASES ?? '')
  .split('|')
  .map((s) => s.trim().toLowerCase())
  .filter((s) => s !== '');
const STORES = (process.env.BENCH_API_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const SVC_NODE_ARGS = (process.env.BENCH_API_SVC_ARGS ?? '').split(' ').filter((s) => s !== '');
const TRACING = process.env.BENCH_API_TRACING === '1';
const FILTERED = TRACING || CASE_FILTER.length > 0 || !STORES.includes('sqlite') || !STORES.includes('postgres');

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Send the sample's ETag as If-None-Match (a 304 then counts as a success). */
  conditional?: boolean;
  /** Ask for a different one of these paths on every request, of a server without the body cache (no cache may help). */
  rotate?: string[];
}

interface Figures {
  rps: number;
  /** The server process's CPU time (user + system) per answered request, µs: what the machine's load moves least. */
  cpuPerCall: number;
  p50: number;
  p99: number;
  errors: number;
}

/** CPU time (user + system) a process has used, µs, from /proc (Linux); NaN elsewhere. */
function cpuOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return Number.NaN;
  }
}

async function load(port: number, c: Case, key: string, etag?: string, pid?: number): Promise<Figures> {
  let next = 0;
  const cpuBefore = cpuOf(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${c.path}`,
    method: c.method,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
    body: c.body,
    ...(c.rotate
      ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: c.rotate![next++ % c.rotate!.length] }) }] }
      : {}),
  });
  const failed = result['4xx'] + result['5xx'] + (etag ? 0 : result['3xx']);
  const cpuPerCall = (cpuOf(pid) - cpuBefore) / result.requests.total;
  return { rps: result.requests.average, cpuPerCall, p50: result.latency.p50, p99: result.latency.p99, errors: failed + result.errors };
}

async function seeded(dialect: 'sqlite' | 'postgres'): Promise<Store> {
  const { url } = await freshStore(dialect, DB_NAME);
  process.stderr.write(`${dialect}: seeding ${CREW} crew\n`);
  return seed(url, { crew: CREW, vessels: 20, partners: 1, docsPerCrew: 10, seed: 1 });
}

/** With BENCH_API_REUSE=1, the store an earlier run generated at this size, if there is one. */
async function reusedStore(dialect: 'sqlite' | 'postgres'): Promise<Store | null> {
  if (process.env.BENCH_API_REUSE !== '1') return null;
  const url = storeUrl(dialect, DB_NAME);
  if (dialect === 'sqlite' && !existsSync(url.slice('sqlite:'.length))) return null;
  const store = await openStore(url).catch(() => null);
  if (!store) return null;
  const n = await sql<{ n: number }>`select count(*) as n from crew`.execute(store.db).then(
    (r) => Number(r.rows[0]!.n),
    () => -1,
  );
  if (n === CREW) return store;
  await store.close();
  return null;
}

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<{ rows: string[][]; walks: string[][] }> {
  const url = storeUrl(dialect, DB_NAME);
  const store = (await reusedStore(dialect)) ?? (await seeded(dialect));
  const key = await partnerKey(store, 'gen_ptn_000');
  const crew = await sql<{ crew_unique_id: string }>`
    select c.crew_unique_id from consents c join assignments a on a.crew_unique_id = c.crew_unique_id
    join vessels v on v.vessel_id = a.vessel_id
    where c.partner_id = 'gen_ptn_000' and c.category = 'documents' and v.is_test = 0 and a.role = 'master' and a.status = 'active'
      and exists (select 1 from consents k where k.crew_unique_id = c.crew_unique_id and k.partner_id = c.partner_id and k.category = 'compliance')
      and exists (select 1 from consents k where k.crew_unique_id = c.crew_unique_id and k.partner_id = c.partner_id and k.category = 'profile')
    order by c.crew_unique_id limit 1`.execute(store.db);
  const id = crew.rows[0]!.crew_unique_id;
  const fleetSize = await sql<{ n: number }>`select count(*) as n from assignments a join vessels v on v.vessel_id = a.vessel_id
    where v.is_test = 0 and a.status in ('invited', 'active', 'on_leave')`.execute(store.db);
  // Longer than any cache of the read path holds (5,000 fleet-and-consent answers, 1,000 evaluations;
  // src/services/read-cache/read-cache.ts), taken in turn: no call is answered from one.
  const consenting = async (category: 'profile' | 'compliance') =>
    (
      await sql<{ crew_unique_id: string }>`
        select distinct c.crew_unique_id from consents c join assignments a on a.crew_unique_id = c.crew_unique_id
        join vessels v on v.vessel_id = a.vessel_id
        where c.partner_id = 'gen_ptn_000' and c.category = ${category} and v.is_test = 0 and a.status in ('invited', 'active', 'on_leave')
        order by c.crew_unique_id limit ${ROTATION}`.execute(store.db)
    ).rows.map((r) => r.crew_unique_id);
  const profiles = (await consenting('profile')).map((c) => `/api/v2/employers/me/crew/${c}/profile`);
  const checks = (await consenting('compliance')).map((c) => `/api/v2/employers/me/crew/${c}/compliance-checks`);
  const biggest = await sql<{ vessel_id: string; n: number }>`select a.vessel_id, count(*) as n from assignments a
    join vessels v on v.vessel_id = a.vessel_id join consents k on k.crew_unique_id = a.crew_unique_id and k.partner_id = 'gen_ptn_000'
    and k.category = 'compliance' where v.is_test = 0 and a.status in ('invited', 'active', 'on_leave')
    group by a.vessel_id order by count(*) desc, a.vessel_id limit 1`.execute(store.db);
  await store.close();
  process.stderr.write(`${dialect}: fleet of ${fleetSize.rows[0]!.n} crew entries; crew ${id}\n`);
  const cases: Case[] = [
    { name: 'fleet page (limit 200)', method: 'GET', path: '/api/v2/employers/me/fleet?limit=200' },
    { name: 'fleet page, matching If-None-Match (304)', method: 'GET', path: '/api/v2/employers/me/fleet?limit=200', conditional: true },
    {
      name: `profile, a different crew member each call (${profiles.length}), no body cache`,
      method: 'GET',
      path: profiles[0]!,
      rotate: profiles,
    },
    {
      name: `compliance check, a different crew member each call (${checks.length})`,
      method: 'POST',
      path: checks[0]!,
      body: '{}',
      rotate: checks,
    },
    { name: 'documents list', method: 'GET', path: `/api/v2/employers/me/crew/${id}/documents` },
    { name: 'profile', method: 'GET', path: `/api/v2/employers/me/crew/${id}/profile` },
    { name: 'compliance check', method: 'POST', path: `/api/v2/employers/me/crew/${id}/compliance-checks`, body: '{}' },
  ];
  const rows: string[][] = [];
  const walks: string[][] = [];
  const svc = await startChild(['svc', url], undefined, SVC_NODE_ARGS);
  const uncached = await startChild(['svc', url, 'uncached'], undefined, SVC_NODE_ARGS);
  try {
    for (const c of cases.filter((k) => CASE_FILTER.length === 0 || CASE_FILTER.some((f) => k.name.toLowerCase().includes(f)))) {
      // The rotating case cycles through its paths several times a run: a cache would answer the later rounds.
      const server = c.rotate ? uncached : svc;
      const sample = await fetch(`http://127.0.0.1:${server.port}${c.path}`, {
        method: c.method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: c.body,
      });
      if (!sample.ok) throw new Error(`${c.name}: ${sample.status} ${await sample.text()}`);
      const body = await sample.text();
      const bare = await startChild(['bare', body]);
      const real: Figures[] = [];
      const base: Figures[] = [];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          real.push(
            await load(server.port, c, key, c.conditional ? (sample.headers.get('etag') ?? undefined) : undefined, server.child.pid),
          );
          base.push(await load(bare.port, c, key, undefined, bare.child.pid));
        }
      } finally {
        await bare.stop();
      }
      const ratios = real.map((r, i) => r.rps / base[i]!.rps);
      const at = <K extends keyof Figures>(figures: Figures[], k: K) => median(figures.map((f) => f[k]));
      const line = [
        dialect,
        c.name,
        `${(body.length / 1024).toFixed(1)} KiB`,
        at(real, 'rps').toFixed(0),
        `${at(real, 'p50')} / ${at(real, 'p99')}`,
        at(base, 'rps').toFixed(0),
        `${percent(median(ratios))} (${percent(Math.min(...ratios))}–${percent(Math.max(...ratios))})`,
        String(real.reduce((n, r) => n + r.errors, 0)),
        `${at(real, 'cpuPerCall').toFixed(0)} / ${at(base, 'cpuPerCall').toFixed(0)}`,
        percent(median(real.map((r, i) => base[i]!.cpuPerCall / r.cpuPerCall))),
      ];
      process.stderr.write(`  ${line.join('  ')}\n`);
      rows.push(line);
    }
    if (CASE_FILTER.length === 0 || CASE_FILTER.some((f) => 'fleet compliance walk'.includes(f))) {
      walks.push(...(await complianceWalks(dialect, url, uncached.port, key, biggest.rows[0]!)));
    }
  } finally {
    await svc.stop();
    await uncached.stop();
  }
  return { rows, walks };
}

/**
 * Issue 20's ratios, on the server without the body cache (each page built, as on a first walk):
 * the fleet's compliance walked against the roster walk, and the matrix of the largest vessel
 * against one fleet page.
 */
async function complianceWalks(
  dialect: string,
  url: string,
  port: number,
  key: string,
  vessel: { vessel_id: string; n: number },
): Promise<string[][]> {
  // The two walks take turns, one of each per round, like the load runs: the machine's speed drifts
  // within a run, and a ratio of two walks made back to back moves far less than the walks do.
  const rosters: Walk[] = [];
  const compliances: Walk[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rosters.push(await walkList(port, key, '/api/v2/employers/me/fleet?limit=200', 1));
    compliances.push(await walkList(port, key, '/api/v2/employers/me/compliance?limit=200', 1));
  }
  const walkRatios = compliances.map((c, i) => c.ms / rosters[i]!.ms);
  const roster = { ...rosters[0]!, ms: median(rosters.map((w) => w.ms)) };
  const compliance = { ...compliances[0]!, ms: median(compliances.map((w) => w.ms)) };
  const page = await timeCall(port, key, '/api/v2/employers/me/fleet?limit=200');
  const matrixPath = `/api/v2/employers/me/vessels/${vessel.vessel_id}/compliance-matrix`;
  const matrix = await timeCall(port, key, matrixPath);
  const changed = await afterChanges(url, vessel.vessel_id, () => timeCall(port, key, matrixPath, 0).then((t) => t.first));
  const out = [
    [
      dialect,
      `fleet compliance walk (${compliance.items} items, ${compliance.pages} pages of 200)`,
      `${compliance.ms.toFixed(0)} ms`,
      `fleet roster walk (${roster.items} items, ${roster.pages} pages)`,
      `${roster.ms.toFixed(0)} ms`,
      `${median(walkRatios).toFixed(2)}x (${Math.min(...walkRatios).toFixed(2)}–${Math.max(...walkRatios).toFixed(2)})`,
    ],
    [
      dialect,
      `compliance matrix of ${vessel.vessel_id} (${Number(vessel.n)} consenting crew), at the same data version`,
      `${matrix.median.toFixed(1)} ms`,
      'one fleet page of 200',
      `${page.median.toFixed(1)} ms`,
      `${(matrix.median / page.median).toFixed(2)}x`,
    ],
    [
      dialect,
      'the same matrix, first call (built: roster, documents, evaluation)',
      `${matrix.first.toFixed(1)} ms`,
      'one fleet page of 200',
      `${page.median.toFixed(1)} ms`,
      `${(matrix.first / page.median).toFixed(2)}x`,
    ],
    [
      dialect,
      `the same matrix, first call after a change to one crew member's document (median of ${changed.length})`,
      `${median(changed).toFixed(1)} ms`,
      'one fleet page of 200',
      `${page.median.toFixed(1)} ms`,
      `${(median(changed) / page.median).toFixed(2)}x`,
    ],
  ];
  for (const line of out) process.stderr.write(`  ${line.join('  ')}\n`);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percent = (x: number) => `${(100 * x).toFixed(0)}%`;

/**
 * `call` timed right after each of 7 writes, each moving the expiry of one document of a different
 * crew member on the vessel by a day (a real change: the data version moves), the writes undone after.
 */
async function afterChanges(url: string, vesselId: string, call: () => Promise<number>): Promise<number[]> {
  const store = await openStore(url);
  try {
    const docs = await sql<{ document_id: string }>`select min(d.document_id) as document_id from documents d
      join assignments a on a.crew_unique_id = d.crew_unique_id where a.vessel_id = ${vesselId} and d.expiry_date is not null
      group by d.crew_unique_id order by d.crew_unique_id limit 7`.execute(store.db);
    const times: number[] = [];
    for (const step of [1, -1]) {
      for (const { document_id } of docs.rows) {
        await sql`update documents set expiry_date = ${sql.raw(dialectDate(url, step))} where document_id = ${document_id}`.execute(
          store.db,
        );
        if (step === 1) times.push(await call());
      }
    }
    return times;
  } finally {
    await store.close();
  }
}

/** expiry_date moved by `days`, in the store's own SQL. */
function dialectDate(url: string, days: number): string {
  return url.startsWith('sqlite:')
    ? `date(expiry_date, '${days >= 0 ? '+' : ''}${days} day')`
    : `to_char(expiry_date::date + ${days}, 'YYYY-MM-DD')`;
}

/** A collector on loopback that answers every OTLP post as a Collector does, and keeps nothing. */
async function startTraceSink(): Promise<{ url: string; close(): void }> {
  const sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/v1/traces`, close: () => sink.close() };
}

const sink = TRACING ? await startTraceSink() : undefined;
// The servers are children of this process and take its environment (bench/support/serve-child.ts).
if (sink) process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = sink.url;
const loadAtStart = loadavg()[0]!.toFixed(1);
const rows: string[][] = [];
const walks: string[][] = [];
for (const dialect of ['sqlite', 'postgres'] as const) {
  if (!STORES.includes(dialect) || (dialect === 'postgres' && !(await postgresAvailable()))) continue;
  const figures = await runDialect(dialect);
  rows.push(...figures.rows);
  walks.push(...figures.walks);
}
if (STORES.includes('postgres') && !(await postgresAvailable())) {
  process.stderr.write('Postgres does not answer: its half is skipped\n');
}

const body = `Command: \`BENCH_SECONDS=${DURATION} BENCH_ROUNDS=${ROUNDS} npm run bench:api\` (${DURATION} s per run, ${CONNECTIONS} connections, keep-alive, loopback; autocannon in
the parent process, each server in its own process through tsx (bench/support/child.ts); for each case svc
and bare Koa take turns ${ROUNDS} times and the table gives medians, the ratio as the median of the ${ROUNDS} back-to-back pairs and their range; \`BENCH_API_DB\`, \`BENCH_API_CASES\`, \`BENCH_API_STORES\`, \`BENCH_API_REUSE\` and
\`BENCH_API_SVC_ARGS\` for a private database and quick profiling runs, see bench/api-bench.ts). Machine: ${machineLine()}. Data: \`svc fixtures generate --crew ${CREW} --vessels 20
--partners 1 --docs-per-crew 10\` (≈10,000 crew on the partner's live fleet). Every request is authenticated, rate-limited
(tokens claimed from the store in blocks) and audited (one row per request, written in batches), as in production.
Machine load (1-minute load average, the machine is shared): ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end.
A 304 counts as a success only in the If-None-Match case. The fleet page, profile and documents list repeat one request, so
after the first call they are answered from the body cache (docs/api.md, "Conditional requests"; the data version is still
read for each call); the compliance check (a POST) is never an answer from a cache: its evaluation and its fleet-and-consent
answer are reused while the data version holds, its body rendered and its links signed on every call. The two cases that ask
about a different crew member each call (${ROTATION.toLocaleString('en')} at most, in turn: more than any cache of the read path holds, so none
answers) are what partners asking about many crew see, and the figures that count; they are served by a second svc process
without the body cache. The last two columns are each server process's own CPU time
(user + system, from /proc) per answered call, which the machine's load moves far less than requests per second, and
their ratio: what "svc ÷ bare" would be if both were bound by their own CPU alone.

${table(['store', 'endpoint', 'body', 'svc req/s', 'p50 / p99 ms', 'bare Koa req/s', 'svc ÷ bare (range)', 'non-2xx', 'CPU µs per call svc / bare', 'bare ÷ svc CPU'], rows)}

Fleet compliance (issue 20; targets: at most 3x), one client, sequential, on the svc process without the body cache: the whole
fleet's compliance (\`GET /employers/me/compliance\`, pages of 200, every item evaluated on today with its next change) against
the roster walk (\`GET /employers/me/fleet\`, pages of 200), the two walks taking turns ${ROUNDS} times, with medians and the
walk ratio as the median (and range) of the ${ROUNDS} back-to-back pairs; and, medians of 7 calls, the matrix of the largest
live vessel against one fleet page of 200: at the same data version, on its first call (built: roster, documents, evaluation),
and on its first call after a change (one document of one of its crew moved by a day, median of 7 such changes), when the kept
matrix is brought up to date (docs/decisions.md).

${table(['store', 'walk or call', 'time', 'compared with', 'time', 'ratio'], walks)}`;
sink?.close();
if (!FILTERED) writeSection('API under load', body);
console.log(body);
