// Delivery throughput: signed deliveries per second from the outbox to a local receiver (in its
// own process) that answers 200 at once, against a reference measured in the same run: the same
// signed POSTs at the same concurrency with no store at all. Run: npm run bench:delivery
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pLimit from 'p-limit';
import { loadConfig } from '../src/config/config.ts';
import { openStore } from '../src/store/connect.ts';
import { migrateToLatest } from '../src/store/migrator.ts';
import { insertOutboxEvents } from '../src/store/repositories/outbox-repo.ts';
import { upsertEmployers, upsertPartners } from '../src/store/repositories/reference-data-repo.ts';
import { insertEndpoint } from '../src/store/repositories/webhook-endpoints-repo.ts';
import { deliverDue } from '../src/sync/deliver-due.ts';
import { deliveryDepsFromConfig } from '../src/sync/delivery-deps.ts';
import { deliveryHeaders } from '../src/sync/signing.ts';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { dropStore, freshStore, postgresAvailable } from './support/setup.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const PARTNERS = 10;
const NOW = new Date().toISOString();
// Serves both signature schemes, so each delivery carries both (as a newly registered endpoint's do).
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const config = loadConfig(process.env, { allowInsecureWebhooks: true });

function bodyOf(eventId: string, partnerId: string, i: number): string {
  return JSON.stringify({ schema_version: 1, event_id: eventId, event_type: 'crew.status.changed', occurred_at: NOW, partner_id: partnerId,
    data: { crew_unique_id: `crew_${i}`, verification_status: 'verified', background_check_status: 'clear' } });
}

const BARE_ENDPOINT = {
  endpointId: 'whe_bare', partnerId: 'ptn_bare', url: '', subscribedEvents: [], secret: SECRET, status: 'active' as const, createdAt: NOW, updatedAt: NOW,
};

/** The reference: sign and POST the same number of bodies at the same concurrency, storing nothing. */
async function bare(receiverUrl: string): Promise<number> {
  const overall = pLimit(Math.min(config.webhookConcurrency, PARTNERS * config.webhookConcurrencyPerEndpoint));
  const started = performance.now();
  await Promise.all(Array.from({ length: EVENTS }, (_, i) => overall(async () => {
    const eventId = `evt_${randomUUID()}`;
    const body = bodyOf(eventId, 'ptn_bare', i);
    const headers = deliveryHeaders(BARE_ENDPOINT, { eventId, eventType: 'crew.status.changed' }, new Date(), Math.floor(Date.now() / 1000), body);
    const res = await fetch(receiverUrl, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(config.webhookTimeoutMs) });
    await res.text();
  })));
  return EVENTS / ((performance.now() - started) / 1000);
}

async function runDialect(dialect: 'sqlite' | 'postgres', receiverUrl: string, reference: number): Promise<Array<string | number>> {
  const name = `svc_bench_delivery_${process.pid}`;
  const { url } = await freshStore(dialect, name);
  const store = await openStore(url, { poolSize: dialect === 'postgres' ? config.webhookConcurrency + 2 : undefined });
  try {
    await migrateToLatest(store.db);
    await upsertEmployers(store.db, [{ employer_id: 'emp_bench', name: 'Bench' }]);
    const partners = Array.from({ length: PARTNERS }, (_, i) => `ptn_bench_${i}`);
    await upsertPartners(store.db, partners.map((partner_id) => ({
      partner_id, name: partner_id, kind: 'customer' as const, employer_id: 'emp_bench', tier: 'management' as const, scope_overrides: null,
      upgraded: 0 as const, contract_scopes: null, rate_limit: null, created_at: NOW,
    })));
    for (const partnerId of partners) {
      await insertEndpoint(store.db, {
        endpointId: `whe_${partnerId}`, partnerId, url: receiverUrl, subscribedEvents: ['crew.status.changed'],
        secret: SECRET, status: 'active', createdAt: NOW, updatedAt: NOW,
      });
    }
    await insertOutboxEvents(store.db, Array.from({ length: EVENTS }, (_, i) => {
      const eventId = `evt_${randomUUID()}`;
      const partnerId = partners[i % PARTNERS]!;
      return { event_id: eventId, partner_id: partnerId, event_type: 'crew.status.changed', crew_unique_id: `crew_${i}`, occurred_at: NOW,
        body: bodyOf(eventId, partnerId, i), status: 'pending' as const, attempts: 0, next_attempt_at: NOW, locked_by: null, locked_until: null,
        created_at: NOW, delivered_at: null };
    }));
    const deps = deliveryDepsFromConfig(config, { clock: () => new Date(), wallClock: () => new Date() });
    const started = performance.now();
    const report = await deliverDue(store.db, deps, 'run_bench');
    const seconds = (performance.now() - started) / 1000;
    const attempts = await store.db.selectFrom('delivery_attempts').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rate = report.totals.delivered / seconds;
    const line = [dialect, EVENTS, report.totals.delivered, Number(attempts.n), seconds.toFixed(1), rate.toFixed(0), reference.toFixed(0),
      `${Math.round((100 * rate) / reference)}%`, `${deps.concurrency} / ${deps.perEndpointConcurrency}`];
    process.stderr.write(`  ${line.join('  ')}\n`);
    return line;
  } finally {
    await store.close();
    await dropStore(dialect, name);
  }
}

const receiver = await startChild([], 'bench/support/receiver-child.ts');
const receiverUrl = `http://127.0.0.1:${receiver.port}/hook`;
try {
  const load = loadavg()[0]!.toFixed(1);
  const rows: Array<Array<string | number>> = [];
  const dialects: Array<'sqlite' | 'postgres'> = (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const dialect of dialects) rows.push(await runDialect(dialect, receiverUrl, await bare(receiverUrl)));
  const body = `Command: \`npm run bench:delivery\` (\`BENCH_EVENTS\` to change the count). Machine: ${machineLine()}; load average ${load}
when it started. ${EVENTS.toLocaleString('en')} pending events over ${PARTNERS} partners' endpoints, delivered by one
\`svc sync\` delivery stage (claim in batches, sign with a fresh timestamp, POST, store the attempt, mark delivered) to a
receiver in another process on loopback that answers 200 at once. "bare POSTs/s" is the reference, measured just before each
store's run: the same signed POSTs at the same concurrency, with no store.

${table(['store', 'events', 'delivered', 'attempts stored', 'wall s', 'deliveries/s', 'bare POSTs/s', 'svc ÷ bare', 'concurrency overall / per endpoint'], rows)}`;
  writeSection('Delivery throughput', body);
  console.log(body);
} finally {
  await receiver.stop();
}
