// The fleet roster walk and the fleet compliance walk in one process, without HTTP, timing this
// process's own CPU (user + system; the SQLite driver's work included, a Postgres server's not).
// Run: node --import tsx bench/support/walk-cpu.ts <store url> (a store bench:api generated, e.g.
// sqlite:.bench/svc_bench_api.db). Prints the medians of 5 alternating walks as JSON.
import { performance } from 'node:perf_hooks';
import { effectiveScopes } from '../../src/domain/scopes.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { decodeFleetCursor, listFleetPage } from '../../src/services/read-api/fleet.ts';
import { decodeFleetComplianceCursor, listFleetCompliancePage } from '../../src/services/read-api/fleet-compliance.ts';
import type { PartnerContext } from '../../src/services/visibility/partner-context.ts';
import { openStore } from '../../src/store/connect.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';

const store = await openStore(process.argv[2]!);
const db = store.db;
const partner = (await findPartner(db, 'gen_ptn_000'))!;
const ctx: PartnerContext = { partner, mode: 'live', keyId: 'bench', scopes: new Set(effectiveScopes(partner)) };
const key = Buffer.alloc(32, 1);
const today = new Date().toISOString().slice(0, 10);
const catalogue = new CatalogueCache(() => new Date());

async function roster(): Promise<number> {
  let items = 0;
  for (let after = null; ;) {
    const page = await listFleetPage(db, ctx, key, { limit: 200, windowDays: 90, after, today });
    items += page.items.length;
    JSON.stringify(page);
    if (!page.next_cursor) return items;
    after = decodeFleetCursor(key, page.next_cursor, ctx)!.after;
  }
}

async function compliance(): Promise<number> {
  let items = 0;
  for (let after = null; ;) {
    const page = await listFleetCompliancePage(
      db,
      ctx,
      { catalogue, windowDays: 90, cursorKey: key, today },
      { filters: { on: today }, limit: 200, after },
    );
    items += page.items.length;
    JSON.stringify(page);
    if (!page.next_cursor) return items;
    after = decodeFleetComplianceCursor(key, page.next_cursor, ctx)!.after;
  }
}

async function measure(walk: () => Promise<number>): Promise<{ items: number; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const items = await walk();
  const used = process.cpuUsage(cpu);
  return { items, wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await roster();
await compliance();
const runs: { roster: Awaited<ReturnType<typeof measure>>; compliance: Awaited<ReturnType<typeof measure>> }[] = [];
for (let i = 0; i < 5; i++) runs.push({ roster: await measure(roster), compliance: await measure(compliance) });
const of = (k: 'roster' | 'compliance', f: 'wallMs' | 'cpuMs') => Math.round(median(runs.map((r) => r[k][f])));
console.log(
  JSON.stringify({
    items: { roster: runs[0]!.roster.items, compliance: runs[0]!.compliance.items },
    roster: { wallMs: of('roster', 'wallMs'), cpuMs: of('roster', 'cpuMs') },
    compliance: { wallMs: of('compliance', 'wallMs'), cpuMs: of('compliance', 'cpuMs') },
    cpuRatio: (of('compliance', 'cpuMs') / of('roster', 'cpuMs')).toFixed(2),
  }),
);
await store.close();
