import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { createServeMetrics } from '../../src/http/metrics/registry.ts';
import type { Database } from '../../src/store/database.ts';
import { upsertDeadLetter } from '../../src/store/repositories/dead-letters-repo.ts';
import { noteEndpointAttempts } from '../../src/store/repositories/endpoint-health-repo.ts';
import { finishSyncRun, insertSyncRun } from '../../src/store/repositories/sync-runs-repo.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { cliChild } from '../support/cli.ts';
import { promtoolMissing, promtoolProblems, sampleValue } from '../support/exposition.ts';
import { startServeChild, type ServeChild } from '../support/serve-child.ts';
import { createSqliteStoreUrl, describeEachStore, type TestStore } from '../support/stores.ts';
import { seedEvent, seedPartners, T0 } from '../support/sync-world.ts';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const skipParser = promtoolMissing();

function endpoint(partnerId: string, status: 'active' | 'disabled') {
  return {
    endpointId: `whe_${partnerId}`,
    partnerId,
    url: 'https://hooks.example/x',
    subscribedEvents: ['crew.status.changed'],
    secret: 'whsec_x',
    status,
    createdAt: T0,
    updatedAt: T0,
  };
}

describeEachStore('metrics read from the store at scrape time', ({ store }) => {
  it(
    'outbox pending, due and the oldest due age; unreplayed dead letters; endpoints disabled or failing; the last sync run',
    { skip: skipParser },
    async () => {
      const db = store().db;
      await seedPartners(db, 'ptn_ok', 'ptn_bad', 'ptn_off', 'ptn_new');
      for (const [p, s] of [
        ['ptn_ok', 'active'],
        ['ptn_bad', 'active'],
        ['ptn_off', 'disabled'],
        ['ptn_new', 'active'],
      ] as const)
        await insertEndpoint(db, endpoint(p, s));
      // Due since 11:00 and 11:30, and one due only at 13:00.
      await seedEvent(db, 'ptn_bad', { nextAttemptAt: '2026-11-22T11:00:00.000Z' });
      await seedEvent(db, 'ptn_bad', { nextAttemptAt: '2026-11-22T11:30:00.000Z' });
      await seedEvent(db, 'ptn_ok', { nextAttemptAt: '2026-11-22T13:00:00.000Z' });
      await seedEvent(db, 'ptn_ok', { nextAttemptAt: '2026-11-22T13:00:00.000Z' });
      await seedEvent(db, 'ptn_bad', { nextAttemptAt: '2026-11-22T13:00:00.000Z' });
      await seedEvent(db, 'ptn_off', { nextAttemptAt: '2026-11-22T13:00:00.000Z' });
      // ptn_bad delivered once, then failed: failing. ptn_ok failed, then delivered: healthy. As the record stage notes them.
      const at = (m: number) => new Date(Date.parse(T0) + m * 60_000).toISOString();
      await noteEndpointAttempts(db, {
        partnerId: 'ptn_bad',
        attempts: [
          { at: at(1), delivered: true },
          { at: at(2), delivered: false },
        ],
      });
      await noteEndpointAttempts(db, {
        partnerId: 'ptn_ok',
        attempts: [
          { at: at(1), delivered: false },
          { at: at(2), delivered: true },
        ],
      });
      const dead = [await seedEvent(db, 'ptn_bad'), await seedEvent(db, 'ptn_bad')].map((e) => e.eventId);
      await db.updateTable('outbox_events').set({ status: 'dead' }).where('event_id', 'in', dead).execute();
      for (const eventId of dead)
        await upsertDeadLetter(db, { eventId, partnerId: 'ptn_bad', eventType: 'crew.status.changed', reason: 'gave up', deadAt: T0 });
      await db.updateTable('dead_letters').set({ replayed_at: T0 }).where('event_id', '=', dead[1]!).execute();
      await insertSyncRun(db, { runId: 'run_old', kind: 'sync', startedAt: '2026-11-22T11:00:00.000Z' });
      await finishSyncRun(db, 'run_old', '2026-11-22T11:05:00.000Z', {
        outcome: 'delivery_failures',
        eventsCreated: 7,
        delivered: 5,
        deadLettered: 2,
        deliveryErrors: 0,
      });
      await insertSyncRun(db, { runId: 'run_now', kind: 'sync', startedAt: '2026-11-22T11:45:00.000Z' });
      await insertSyncRun(db, { runId: 'run_other', kind: 'deliver_only', startedAt: '2026-11-22T11:50:00.000Z' });

      const { body, contentType } = await createServeMetrics({ db, clock: () => NOW, auditBacklog: () => 3, auditCapacity: 100 }).scrape();
      assert.match(contentType, /^text\/plain; version=0\.0\.4/);
      assert.equal(promtoolProblems(body), '', "Prometheus's own parser and linter accept the exposition");
      const v = (name: string, labels?: Record<string, string>) => sampleValue(body, name, labels);
      assert.equal(v('svc_store_read_up'), 1);
      assert.equal(v('svc_outbox_pending_events'), 6);
      assert.equal(v('svc_outbox_due_events'), 2);
      assert.equal(v('svc_outbox_oldest_due_age_seconds'), 3600);
      assert.equal(v('svc_outbox_held_events'), 1, "ptn_off's, whose endpoint is disabled");
      assert.equal(v('svc_dead_letters'), 1, 'a replayed dead letter no longer waits');
      assert.equal(v('svc_webhook_endpoints_unhealthy', { state: 'disabled' }), 1);
      assert.equal(v('svc_webhook_endpoints_unhealthy', { state: 'failing' }), 1, 'ptn_bad only: ptn_new has no attempt yet');
      assert.equal(v('svc_audit_queue_depth'), 3);
      assert.equal(v('svc_audit_queue_capacity'), 100);
      assert.equal(v('svc_outbox_oldest_pending_age_seconds'), (NOW.getTime() - Date.parse(T0)) / 1000, 'created at T0, due or not');
      assert.equal(
        v('svc_sync_last_run_start_timestamp_seconds'),
        Date.parse('2026-11-22T11:45:00Z') / 1000,
        'the sync run started last, not deliver-only',
      );
      assert.equal(v('svc_sync_last_run_end_timestamp_seconds'), 0, 'still running');
      assert.equal(v('svc_sync_last_run_outcome', { outcome: 'running' }), 1);
      assert.equal(v('svc_sync_last_run_outcome', { outcome: 'ok' }), 0);
      assert.equal(v('svc_sync_last_finished_timestamp_seconds'), Date.parse('2026-11-22T11:05:00Z') / 1000);
      assert.equal(
        v('svc_sync_last_success_timestamp_seconds'),
        Date.parse('2026-11-22T11:05:00Z') / 1000,
        'delivery_failures got through its run: a success for this gauge',
      );
      assert.equal(v('svc_sync_last_run_events', { kind: 'created' }), 0);
      assert.equal(v('svc_sync_last_run_phase_seconds', { phase: 'deliver' }), 0, 'no phases while it runs');

      await finishSyncRun(db, 'run_now', '2026-11-22T11:55:00.000Z', {
        outcome: 'ok',
        eventsCreated: 40,
        delivered: 40,
        deadLettered: 0,
        deliveryErrors: 0,
        phases: { seconds: { read: 1.5, diff: 2.25, write: 0.75, deliver: 8 }, pages: 3 },
      });
      const done = await createServeMetrics({ db, clock: () => NOW, auditBacklog: () => 0, auditCapacity: 100 }).scrape();
      assert.equal(promtoolProblems(done.body), '');
      const w = (name: string, labels?: Record<string, string>) => sampleValue(done.body, name, labels);
      assert.deepEqual(
        ['read', 'diff', 'write', 'deliver'].map((phase) => w('svc_sync_last_run_phase_seconds', { phase })),
        [1.5, 2.25, 0.75, 8],
      );
      assert.equal(w('svc_sync_last_run_pages'), 3);
      assert.equal(w('svc_sync_last_run_deliveries_per_second'), 5, '40 delivered in 8 s');
    },
  );
});

/** A store whose SELECTs are counted, and which fails every statement while `failing` is set. */
function countingStore(db: Kysely<Database>) {
  const state = { selects: 0, failing: false };
  const counted = db.withPlugin({
    transformQuery({ node }) {
      if (state.failing) throw new Error('the store does not answer');
      if (node.kind === 'SelectQueryNode') state.selects++;
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  });
  return { db: counted, state };
}

describeEachStore('scrapes share one store read a second', ({ store }) => {
  it('20 concurrent scrapes read the store once; a scrape within 1 s reuses it, one after reads again; a failed read is not kept', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_ok');
    await seedEvent(db, 'ptn_ok', { nextAttemptAt: '2026-11-22T11:00:00.000Z' });
    // What one scrape's read costs, measured on metrics of their own.
    const alone = countingStore(db);
    await createServeMetrics({ db: alone.db, clock: () => NOW, auditBacklog: () => 0, auditCapacity: 100 }).scrape();
    const oneRead = alone.state.selects;
    assert.ok(oneRead > 0);

    let now = NOW;
    const at = (ms: number) => (now = new Date(NOW.getTime() + ms));
    const counting = countingStore(db);
    const metrics = createServeMetrics({ db: counting.db, clock: () => now, auditBacklog: () => 0, auditCapacity: 100 });
    const scrape = async () => (await metrics.scrape()).body;
    const bodies = await Promise.all(Array.from({ length: 20 }, scrape));
    assert.equal(counting.state.selects, oneRead, '20 concurrent scrapes cost the store one read');
    for (const body of bodies) {
      assert.equal(sampleValue(body, 'svc_store_read_up'), 1);
      assert.equal(sampleValue(body, 'svc_outbox_pending_events'), 1);
    }

    await seedEvent(db, 'ptn_ok', { nextAttemptAt: '2026-11-22T11:00:00.000Z' });
    at(999);
    let body = await scrape();
    assert.equal(counting.state.selects, oneRead, 'a scrape within 1 s of the read reuses it');
    assert.equal(sampleValue(body, 'svc_outbox_pending_events'), 1, 'so its gauges may be up to 1 s old');
    assert.equal(sampleValue(body, 'svc_outbox_oldest_due_age_seconds'), 3600.999, 'ages count to the scrape');
    at(1000);
    body = await scrape();
    assert.equal(counting.state.selects, 2 * oneRead, 'after 1 s a scrape reads again');
    assert.equal(sampleValue(body, 'svc_outbox_pending_events'), 2);

    at(2000);
    counting.state.failing = true;
    body = await scrape();
    assert.equal(sampleValue(body, 'svc_store_read_up'), 0);
    assert.equal(sampleValue(body, 'svc_store_errors_total', { source: 'scrape' }), 1);
    counting.state.failing = false;
    body = await scrape();
    assert.equal(counting.state.selects, 3 * oneRead, 'the failed read was not kept: the next scrape, at the same instant, reads');
    assert.equal(sampleValue(body, 'svc_store_read_up'), 1);
  });
});

describe('svc serve --metrics-port: a listener of its own', () => {
  let db: TestStore;
  let serve: ServeChild | undefined;
  before(async () => {
    db = await createSqliteStoreUrl();
    assert.equal((await cliChild(['--db', db.url, 'db', 'migrate', '--no-catalogue'])).code, 0);
  });
  after(async () => {
    await serve?.stop();
    await db.dispose();
  });

  it(
    'on loopback by default; requests by route template and status, with latency; other paths 404; the partner port has no /metrics',
    { skip: skipParser },
    async () => {
      serve = await startServeChild(db.url, { SVC_METRICS_PORT: '0', SVC_LOG_FORMAT: 'json' });
      const metricsUrl = String(serve.logs.find((l) => l.msg === 'metrics listening')?.url);
      assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${serve.url}/_internal/health`)).status, 200);
      assert.equal((await fetch(`${serve.url}/api/v2/employers/me/crew/crew_1/profile`)).status, 401);
      assert.equal((await fetch(`${serve.url}/metrics`)).status, 404, 'metrics are not on the partner port');
      assert.equal((await fetch(metricsUrl.replace('/metrics', '/other'))).status, 404);
      const res = await fetch(metricsUrl);
      assert.equal(res.status, 200);
      const body = await res.text();
      assert.equal(promtoolProblems(body), '');
      assert.equal(sampleValue(body, 'svc_http_requests_total', { route: '/_internal/health', method: 'GET', status: '200' }), 3);
      assert.equal(
        sampleValue(body, 'svc_http_requests_total', {
          route: '/api/v2/employers/me/crew/{crew_unique_id}/profile',
          method: 'GET',
          status: '401',
        }),
        1,
      );
      assert.equal(sampleValue(body, 'svc_http_request_duration_seconds_count', { route: '/_internal/health', method: 'GET' }), 3);
      assert.equal(sampleValue(body, 'svc_http_rate_limited_total'), 0);
      assert.equal(sampleValue(body, 'svc_store_read_up'), 1);
      assert.ok(!body.includes('crew_1'), 'never a path, only route templates');
    },
  );

  it('a metrics port in use is bad usage naming the setting (exit 64)', async () => {
    const busy = await startServeChild(db.url, { SVC_METRICS_PORT: '0' });
    try {
      const port = new URL(String(busy.logs.find((l) => l.msg === 'metrics listening')?.url)).port;
      const res = await cliChild(['--db', db.url, 'serve', '--port', '0', '--metrics-port', port]);
      assert.equal(res.code, 64, res.stderr);
      assert.match(res.stderr, /cannot listen for metrics on 127\.0\.0\.1:\d+: .*SVC_METRICS_PORT or --metrics-port/);
    } finally {
      await busy.stop();
    }
  });
});
