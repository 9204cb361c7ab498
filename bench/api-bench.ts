// API under load: autocannon on loopback, keep-alive, 32 connections, against `svc` in its own
// process, beside a bare Koa route serving the same JSON body from memory. Run: npm run bench:api
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { freshStore, partnerKey, postgresAvailable, seed } from './support/setup.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const CREW = Number(process.env.BENCH_CREW ?? 11_200); // ≈10,000 on live vessels (every 10th vessel is test-flagged)

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Send the sample's ETag as If-None-Match (a 304 then counts as a success). */
  conditional?: boolean;
  /** Ask for a different one of these paths on every request (no cache can help). */
  rotate?: string[];
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(port: number, c: Case, key: string, etag?: string): Promise<Figures> {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${c.path}`, method: c.method, connections: CONNECTIONS, duration: DURATION,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(etag ? { 'if-none-match': etag } : {}) }, body: c.body,
    ...(c.rotate ? { requests: [{ setupRequest: (req: any) => ({ ...req, path: c.rotate![next++ % c.rotate!.length] }) }] } : {}),
  });
  const failed = result['4xx'] + result['5xx'] + (etag ? 0 : result['3xx']);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: failed + result.errors };
}

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<string[][]> {
  const { url } = await freshStore(dialect, 'svc_bench_api');
  process.stderr.write(`${dialect}: seeding ${CREW} crew\n`);
  const store = await seed(url, { crew: CREW, vessels: 20, partners: 1, docsPerCrew: 10, seed: 1 });
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
  const many = await sql<{ crew_unique_id: string }>`
    select distinct c.crew_unique_id from consents c join assignments a on a.crew_unique_id = c.crew_unique_id
    join vessels v on v.vessel_id = a.vessel_id
    where c.partner_id = 'gen_ptn_000' and c.category = 'profile' and v.is_test = 0 and a.status in ('invited', 'active', 'on_leave')
    order by c.crew_unique_id limit 5000`.execute(store.db);
  const profiles = many.rows.map((r) => `/api/v2/employers/me/crew/${r.crew_unique_id}/profile`);
  await store.close();
  process.stderr.write(`${dialect}: fleet of ${fleetSize.rows[0]!.n} crew entries; crew ${id}\n`);
  const cases: Case[] = [
    { name: 'fleet page (limit 200)', method: 'GET', path: '/api/v2/employers/me/fleet?limit=200' },
    { name: 'fleet page, matching If-None-Match (304)', method: 'GET', path: '/api/v2/employers/me/fleet?limit=200', conditional: true },
    { name: `profile, a different crew member each call (${profiles.length})`, method: 'GET', path: profiles[0]!, rotate: profiles },
    { name: 'documents list', method: 'GET', path: `/api/v2/employers/me/crew/${id}/documents` },
    { name: 'profile', method: 'GET', path: `/api/v2/employers/me/crew/${id}/profile` },
    { name: 'compliance check', method: 'POST', path: `/api/v2/employers/me/crew/${id}/compliance-checks`, body: '{}' },
  ];
  const rows: string[][] = [];
  const svc = await startChild(['svc', url]);
  try {
    for (const c of cases) {
      const sample = await fetch(`http://127.0.0.1:${svc.port}${c.path}`, {
        method: c.method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: c.body,
      });
      if (!sample.ok) throw new Error(`${c.name}: ${sample.status} ${await sample.text()}`);
      const body = await sample.text();
      const real = await load(svc.port, c, key, c.conditional ? sample.headers.get('etag') ?? undefined : undefined);
      const bare = await startChild(['bare', body]);
      const base = await load(bare.port, c, key).finally(() => bare.stop());
      const line = [dialect, c.name, `${(body.length / 1024).toFixed(1)} KiB`, real.rps.toFixed(0), `${real.p50} / ${real.p99}`,
        base.rps.toFixed(0), `${(100 * real.rps / base.rps).toFixed(0)}%`, String(real.errors)];
      process.stderr.write(`  ${line.join('  ')}\n`);
      rows.push(line);
    }
  } finally {
    await svc.stop();
  }
  return rows;
}

const loadAtStart = loadavg()[0]!.toFixed(1);
const rows = await runDialect('sqlite');
if (await postgresAvailable()) rows.push(...(await runDialect('postgres')));
else process.stderr.write('Postgres does not answer: its half is skipped\n');

const body = `Command: \`npm run bench:api\` (${DURATION} s per run, ${CONNECTIONS} connections, keep-alive, loopback; autocannon in the parent
process, each server in its own process). Machine: ${machineLine()}. Data: \`svc fixtures generate --crew ${CREW} --vessels 20
--partners 1 --docs-per-crew 10\` (≈10,000 crew on the partner's live fleet). Every request is authenticated, rate-limited
(tokens claimed from the store in blocks) and audited (one row per request, written in batches), as in production.
Machine load (1-minute load average, the machine is shared): ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end.
A 304 counts as a success only in the If-None-Match case.

${table(['store', 'endpoint', 'body', 'svc req/s', 'p50 / p99 ms', 'bare Koa req/s', 'svc ÷ bare', 'non-2xx'], rows)}`;
writeSection('API under load', body);
console.log(body);
