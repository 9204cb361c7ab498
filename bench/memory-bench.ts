// Memory while a partner pages through the fleet's compliance (issue 20): the server's heap and RSS
// high-water marks during a walk of `GET /api/v2/employers/me/compliance` (pages of 200) over a
// small fleet and over one ten times larger. Flat with fleet size means the larger walk's marks
// stay near the smaller one's: the server holds a page at a time, never the fleet.
// Run: npm run bench:memory. Env: BENCH_MEMORY_CREW (default 10000,100000), BENCH_MEMORY_STORES
// (sqlite,postgres), BENCH_MEMORY_REUSE=1 (keep stores an earlier run generated at the same size).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { openStore, type Store } from '../src/store/connect.ts';
import { freshStore, partnerKey, postgresAvailable, seed, storeUrl } from './support/setup.ts';
import { walkList } from './support/walks.ts';

const SIZES = (process.env.BENCH_MEMORY_CREW ?? '10000,100000').split(',').map(Number);
const STORES = (process.env.BENCH_MEMORY_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim()) as ('sqlite' | 'postgres')[];
const MiB = 2 ** 20;

async function storeOf(dialect: 'sqlite' | 'postgres', crew: number): Promise<{ url: string; store: Store }> {
  const name = `svc_bench_memory_${crew}`;
  const url = storeUrl(dialect, name);
  if (process.env.BENCH_MEMORY_REUSE === '1' && (dialect === 'postgres' || existsSync(url.slice('sqlite:'.length)))) {
    const store = await openStore(url).catch(() => null);
    const n =
      store &&
      (await sql<{ n: number }>`select count(*) as n from crew`.execute(store.db).then(
        (r) => Number(r.rows[0]!.n),
        () => -1,
      ));
    if (store && n === crew) return { url, store };
    await store?.close();
  }
  await freshStore(dialect, name);
  process.stderr.write(`${dialect}: seeding ${crew} crew\n`);
  // 500 crew a vessel, as in bench:api; one partner holds every vessel.
  return { url, store: await seed(url, { crew, vessels: Math.max(1, Math.round(crew / 500)), partners: 1, docsPerCrew: 10, seed: 1 }) };
}

/** The serve child's high-water marks since the last call. */
function marks(child: ReturnType<typeof startChild> extends Promise<infer C> ? C : never): Promise<{ heapUsed: number; rss: number }> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: child.child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('memory ')) return;
      lines.close();
      resolve(JSON.parse(line.slice('memory '.length)) as { heapUsed: number; rss: number });
    });
    child.child.kill('SIGUSR2');
  });
}

async function measure(dialect: 'sqlite' | 'postgres', crew: number): Promise<string[]> {
  const { url, store } = await storeOf(dialect, crew);
  const key = await partnerKey(store, 'gen_ptn_000');
  await store.close();
  process.env.BENCH_MEMORY_SAMPLE = '1';
  const server = await startChild(['svc', url, 'uncached']);
  try {
    // One page first, so the marks after it are the started, warmed server's.
    await walkList(server.port, key, '/api/v2/employers/me/compliance?limit=200&vessel_id=gen_ves_0001', 1);
    const idle = await marks(server);
    const walk = await walkList(server.port, key, '/api/v2/employers/me/compliance?limit=200', 1);
    const peak = await marks(server);
    const row = [
      dialect,
      String(crew),
      `${walk.items} items, ${walk.pages} pages`,
      `${(walk.ms / 1000).toFixed(1)} s`,
      `${(idle.heapUsed / MiB).toFixed(0)} / ${(idle.rss / MiB).toFixed(0)}`,
      `${(peak.heapUsed / MiB).toFixed(0)} / ${(peak.rss / MiB).toFixed(0)}`,
    ];
    process.stderr.write(`  ${row.join('  ')}\n`);
    return row;
  } finally {
    await server.stop();
  }
}

const loadAtStart = loadavg()[0]!.toFixed(1);
const rows: string[][] = [];
for (const dialect of STORES) {
  if (dialect === 'postgres' && !(await postgresAvailable())) continue;
  for (const crew of SIZES) rows.push(await measure(dialect, crew));
}
const body = `Command: \`npm run bench:memory\`. Machine: ${machineLine()}. Machine load (1-minute load average): ${loadAtStart} at the
start, ${loadavg()[0]!.toFixed(1)} at the end. Data: \`svc fixtures generate --crew N --vessels N/500 --partners 1
--docs-per-crew 10\`. A \`svc\` server in its own process (no body cache) samples its own \`process.memoryUsage()\` every 5 ms; one
client walks the whole fleet's compliance (\`GET /api/v2/employers/me/compliance\`, pages of 200, every item evaluated with its
next change). "warmed" is the high-water mark after one page, "walk" the high-water mark during the walk (heap used / RSS, MiB).
Target (issue 20): flat with fleet size; the server holds one page of rows and their documents at a time.

${table(['store', 'crew generated', 'walked', 'walk time', 'warmed heap / RSS MiB', 'walk heap / RSS MiB'], rows)}`;
if (SIZES.join(',') === '10000,100000' && STORES.includes('sqlite') && STORES.includes('postgres'))
  writeSection('Memory while paging the fleet', body);
console.log(body);
