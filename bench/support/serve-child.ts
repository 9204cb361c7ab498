// A server in its own process for the load benchmark: `svc` (the real app over a store) or
// `bare` (a plain Koa route answering a fixed JSON body from memory, the ceiling to compare with).
// `svc <url> uncached` serves without the body cache, for cases no cache may help. With an OTLP
// endpoint in the OTEL_* variables, `svc` is traced as `svc serve` would be.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { createReadCache } from '../../src/services/read-cache/read-cache.ts';
import { tracingSettings } from '../../src/config/tracing-settings.ts';
import { openStore, parseStoreUrl } from '../../src/store/connect.ts';

const [mode, arg, option] = process.argv.slice(2);
let app: Koa;
if (mode === 'bare') {
  const body = Buffer.from(arg ?? '{}');
  app = new Koa();
  app.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
} else {
  // Traced as `svc serve` is when the OTEL_* variables ask for it (src/main.ts): the cost of tracing.
  const tracing = tracingSettings(process.env);
  const runtime = tracing.enabled ? await (await import('../../src/telemetry/start-tracing.ts')).startTracing(tracing) : undefined;
  const sqlite = parseStoreUrl(arg!).dialect === 'sqlite';
  const store = await openStore(arg!, { log: runtime && sqlite ? runtime.sqliteQueryLog : undefined });
  const clock = () => new Date();
  const config = loadConfig({}, { databaseUrl: arg!, rateLimitDefault: 100_000_000, logLevel: 'silent' });
  app = createApp({
    db: store.db,
    config,
    clock,
    logger: pino({ level: 'silent' }),
    spans: runtime?.spans,
    ...(option === 'uncached' ? { readCache: createReadCache(store.db, clock, { bodies: null }) } : {}),
  });
}
const handle = app.callback();
const server = createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
// bench/memory-bench.ts: the heap's and RSS's high-water marks, sampled every 5 ms; SIGUSR2 prints
// them (`memory {...}`) and starts a new interval.
if (process.env.BENCH_MEMORY_SAMPLE === '1') {
  let peak = { heapUsed: 0, rss: 0 };
  setInterval(() => {
    const m = process.memoryUsage();
    peak = { heapUsed: Math.max(peak.heapUsed, m.heapUsed), rss: Math.max(peak.rss, m.rss) };
  }, 5).unref();
  process.on('SIGUSR2', () => {
    process.stdout.write(`memory ${JSON.stringify(peak)}\n`);
    peak = { heapUsed: 0, rss: 0 };
  });
}
