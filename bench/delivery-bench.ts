// Delivery throughput: signed deliveries per second from the outbox to a local receiver (in its
// own process) that answers 200 at once. Run: npm run bench:delivery
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config/config.ts';
import { openStore } from '../src/store/connect.ts';
import { migrateToLatest } from '../src/store/migrator.ts';
import { insertOutboxEvents } from '../src/store/repositories/outbox-repo.ts';
import { upsertEmployers, upsertPartners } from '../src/store/repositories/reference-data-repo.ts';
import { insertEndpoint } from '../src/store/repositories/webhook-endpoints-repo.ts';
import { deliverDue } from '../src/sync/deliver-due.ts';
import { deliveryDepsFromConfig } from '../src/sync/delivery-deps.ts';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { freshStore, postgresAvailable } from './support/setup.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const PARTNERS = 10;
const NOW = new Date().toISOString();

async function runDialect(dialect: 'sqlite' | 'postgres', receiverUrl: string): Promise<Array<Array<string | number>>> {
  const { url } = await freshStore(dialect, 'svc_bench_delivery');
  const config = loadConfig(process.env, { databaseUrl: url, allowInsecureWebhooks: true });
  const store = await openStore(url, { poolSize: dialect === 'postgres' ? config.webhookConcurrency + 2 : undefined });
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
      secret: 'whsec_bench-secret-0123456789abcdef', status: 'active', createdAt: NOW, updatedAt: NOW,
    });
  }
  const rows = Array.from({ length: EVENTS }, (_, i) => {
    const eventId = `evt_${randomUUID()}`;
    const partnerId = partners[i % PARTNERS]!;
    const body = JSON.stringify({ schema_version: 1, event_id: eventId, event_type: 'crew.status.changed', occurred_at: NOW, partner_id: partnerId,
      data: { crew_unique_id: `crew_${i}`, verification_status: 'verified', background_check_status: 'clear' } });
    return { event_id: eventId, partner_id: partnerId, event_type: 'crew.status.changed', crew_unique_id: `crew_${i}`, occurred_at: NOW, body,
      status: 'pending' as const, attempts: 0, next_attempt_at: NOW, locked_by: null, locked_until: null, created_at: NOW, delivered_at: null };
  });
  await insertOutboxEvents(store.db, rows);
  const deps = deliveryDepsFromConfig(config, () => new Date());
  const started = performance.now();
  const report = await deliverDue(store.db, deps, 'run_bench');
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  const line = [dialect, EVENTS, report.totals.delivered, seconds.toFixed(1), (report.totals.delivered / seconds).toFixed(0),
    `${deps.concurrency} / ${deps.perEndpointConcurrency}`];
  process.stderr.write(`  ${line.join('  ')}\n`);
  return [line];
}

const receiver = await startChild([], 'bench/support/receiver-child.ts');
const receiverUrl = `http://127.0.0.1:${receiver.port}/hook`;
try {
  const rows = await runDialect('sqlite', receiverUrl);
  if (await postgresAvailable()) rows.push(...(await runDialect('postgres', receiverUrl)));
  const body = `Command: \`npm run bench:delivery\`. Machine: ${machineLine()}. ${EVENTS.toLocaleString('en')} pending events over ${PARTNERS}
partners' endpoints, delivered by one \`svc sync\` delivery stage (claim, sign with a fresh timestamp, POST, store the attempt,
mark delivered) to a receiver in another process on loopback that answers 200 at once.

${table(['store', 'events', 'delivered', 'wall s', 'deliveries/s', 'concurrency overall / per endpoint'], rows)}`;
  writeSection('Delivery throughput', body);
  console.log(body);
} finally {
  await receiver.stop();
}
