// One diff stage of `svc sync` in its own process, so its wall time and peak RSS are its own.
// Arguments: store URL, the run's "now" (ISO), and `full` to re-diff everything (`svc sync --full`).
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { openStore } from '../../src/store/connect.ts';
import { runDiff } from '../../src/sync/diff/run-diff.ts';

/** What this script prints, on one line of JSON. */
export interface DiffPhase {
  ms: number;
  cpuMs: number;
  events: number;
  pairs: number;
  partners: number;
  maxRssMb: number;
}

const [url, at, mode] = process.argv.slice(2);
const clock = () => new Date(at!);
const store = await openStore(url!);
const started = performance.now();
const cpu = process.cpuUsage();
const { results } = await runDiff(store.db, { clock, catalogue: new CatalogueCache(clock), windowDays: 90, full: mode === 'full' });
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
await store.close();
const events = results.reduce((n, r) => n + Object.values(r.events).reduce((a, b) => a + b, 0), 0);
const pairs = results.reduce((n, r) => n + r.crew, 0);
console.log(
  JSON.stringify({
    ms,
    cpuMs: (used.user + used.system) / 1000,
    events,
    pairs,
    partners: results.length,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  } satisfies DiffPhase),
);
