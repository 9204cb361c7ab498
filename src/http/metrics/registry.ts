import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../../domain/clock.ts';
import { deliveriesPerSecond } from '../../domain/sync-run.ts';
import { SYNC_PHASES, SYNC_RUN_OUTCOMES } from '../../domain/vocabulary.ts';
import { readOperationsSnapshot, type OperationsSnapshot } from '../../services/metrics/operations-snapshot.ts';
import { SharedRead } from '../../services/plumbing/shared-read.ts';
import type { Db } from '../../store/database.ts';
import type { HttpMetrics } from '../app-deps.ts';

/** The metrics of one `svc serve` process (docs/operations.md lists them). */
export interface ServeMetrics {
  http: HttpMetrics;
  /** Reads the store-side gauges (or takes the read shared by recent scrapes), then renders the exposition (Prometheus text format). */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const seconds = (iso: string | null | undefined) => (iso ? Date.parse(iso) / 1000 : 0);
const ageSeconds = (since: string | null, now: Date) => (since ? Math.max(0, (now.getTime() - Date.parse(since)) / 1000) : 0);

/**
 * Builds the registry: request counts and latencies, rate-limit refusals, store errors, the audit
 * queue, Node's process metrics, and the gauges read from the store (outbox, dead letters,
 * endpoints, the last sync run), so they hold with several servers and a cron job. Scrapes share
 * one store read: concurrent ones wait for the same read, and a read is reused for
 * `snapshotMaxAgeMs` (1 s by default) after it started: however many scrapers there are, they
 * cost the store the partner API reads at most one read per window (docs/operations.md).
 */
export function createServeMetrics(deps: {
  db: Db;
  clock: Clock;
  auditBacklog: () => number;
  /** Rows the audit queue holds at most before calls are refused (src/services/audit.ts). */
  auditCapacity: number;
  snapshotMaxAgeMs?: number;
}): ServeMetrics {
  const snapshots = new SharedRead((now) => readOperationsSnapshot(deps.db, now), deps.clock, deps.snapshotMaxAgeMs ?? 1000);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'svc_process_' });
  // prom-client names these three gauges `…_total`, a counter's suffix, which `promtool check
  // metrics` refuses; the same counts stay as the by-type gauges beside them (sum them).
  for (const kind of ['handles', 'requests', 'resources']) registry.removeSingleMetric(`svc_process_nodejs_active_${kind}_total`);
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request latency by route template and method',
    labelNames: ['route', 'method'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'svc_http_rate_limited_total',
    help: 'Calls refused by the per-partner rate limit (429)',
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'svc_store_errors_total',
    help: 'Store failures: calls that failed because the store did not answer or refused, and failed scrape reads',
    labelNames: ['source'],
    registers: [registry],
  });
  new Gauge({
    name: 'svc_audit_queue_depth',
    help: 'Audit rows recorded in memory and not yet written',
    registers: [registry],
    collect() {
      this.set(deps.auditBacklog());
    },
  });
  new Gauge({
    name: 'svc_audit_queue_capacity',
    help: 'Audit rows the queue holds at most; past it, partner calls are refused (503) rather than served unaudited',
    registers: [registry],
  }).set(deps.auditCapacity);
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  const storeUp = gauge(
    'svc_store_read_up',
    '1 when the store-side gauges below come from a store read that succeeded (shared by the scrapes of its window), 0 when the store did not answer',
  );
  const pending = gauge('svc_outbox_pending_events', 'Outbox events not yet delivered or dead-lettered, due or not');
  const due = gauge('svc_outbox_due_events', 'Outbox events whose next attempt is due now');
  const oldestDue = gauge(
    'svc_outbox_oldest_due_age_seconds',
    'Seconds since the longest-waiting due event became due (0 when none is due)',
  );
  const oldestPending = gauge(
    'svc_outbox_oldest_pending_age_seconds',
    'Seconds since the oldest event not yet delivered or dead-lettered was created, due or not, its endpoint active or not (0 when none)',
  );
  const held = gauge(
    'svc_outbox_held_events',
    'Pending events of partners without an active endpoint (disabled): they wait until it is active again',
  );
  const deadLetters = gauge('svc_dead_letters', 'Dead letters not replayed since they died');
  const endpoints = gauge(
    'svc_webhook_endpoints_unhealthy',
    'Webhook endpoints disabled, or active with a failed latest delivery attempt',
    ['state'],
  );
  const runStart = gauge(
    'svc_sync_last_run_start_timestamp_seconds',
    'Start of the svc sync run started last (Unix seconds; 0: none recorded)',
  );
  const runEnd = gauge('svc_sync_last_run_end_timestamp_seconds', 'End of the svc sync run started last (0 while it runs)');
  const runCounts = gauge('svc_sync_last_run_events', 'Events of the svc sync run started last, by what happened to them', ['kind']);
  const runOutcome = gauge('svc_sync_last_run_outcome', '1 for the outcome of the svc sync run started last, 0 for the others', [
    'outcome',
  ]);
  const runPhases = gauge(
    'svc_sync_last_run_phase_seconds',
    'Seconds the svc sync run started last spent per phase: read, diff, write, deliver (0 while it runs)',
    ['phase'],
  );
  const runPages = gauge('svc_sync_last_run_pages', 'Pages of crew the diff of the svc sync run started last went through');
  const runRate = gauge(
    'svc_sync_last_run_deliveries_per_second',
    'Events the svc sync run started last delivered per second of its delivery phase',
  );
  const lastSucceeded = gauge(
    'svc_sync_last_success_timestamp_seconds',
    'End of the last svc sync run that finished with outcome ok or delivery_failures: it got through its diff and delivery (0: none)',
  );
  // The service level over the hour before the read, every partner together: a handful of series
  // however many partners there are (svc admin delivery-report names them).
  const deliverySeconds = gauge(
    'svc_webhook_delivery_seconds',
    'Creation to delivery of the webhook events delivered in the last hour, in seconds: nearest-rank percentile p50 or p99 (0 when none was delivered)',
    ['percentile'],
  );
  const delivered = gauge('svc_webhook_delivered_events', 'Webhook events delivered in the last hour');
  const firstAttempts = gauge(
    'svc_webhook_first_attempts',
    "Webhook events whose first attempt was made in the last hour, by that attempt's outcome: delivered or failed",
    ['outcome'],
  );
  const lastFinished = gauge(
    'svc_sync_last_finished_timestamp_seconds',
    'End of the last svc sync run that finished, whatever its outcome (0: none)',
  );

  const show = (snapshot: OperationsSnapshot, now: Date) => {
    pending.set(snapshot.outbox.pending);
    due.set(snapshot.outbox.due);
    oldestDue.set(ageSeconds(snapshot.outbox.oldestDueSince, now));
    oldestPending.set(ageSeconds(snapshot.outbox.oldestPendingSince, now));
    held.set(snapshot.heldEvents);
    deadLetters.set(snapshot.deadLetters);
    endpoints.set({ state: 'disabled' }, snapshot.endpoints.disabled);
    endpoints.set({ state: 'failing' }, snapshot.endpoints.failing);
    runStart.set(seconds(snapshot.lastRun?.startedAt));
    runEnd.set(seconds(snapshot.lastRun?.finishedAt));
    runCounts.set({ kind: 'created' }, snapshot.lastRun?.eventsCreated ?? 0);
    runCounts.set({ kind: 'delivered' }, snapshot.lastRun?.delivered ?? 0);
    runCounts.set({ kind: 'dead_lettered' }, snapshot.lastRun?.deadLettered ?? 0);
    const phases = snapshot.lastRun?.phases;
    for (const phase of SYNC_PHASES) runPhases.set({ phase }, phases?.seconds[phase] ?? 0);
    runPages.set(phases?.pages ?? 0);
    runRate.set(phases ? deliveriesPerSecond(snapshot.lastRun!.delivered, phases) : 0);
    for (const outcome of SYNC_RUN_OUTCOMES) runOutcome.set({ outcome }, snapshot.lastRun?.outcome === outcome ? 1 : 0);
    lastFinished.set(seconds(snapshot.lastFinishedAt));
    lastSucceeded.set(seconds(snapshot.lastSucceededAt));
    const level = snapshot.delivery;
    deliverySeconds.set({ percentile: 'p50' }, level.p50Seconds ?? 0);
    deliverySeconds.set({ percentile: 'p99' }, level.p99Seconds ?? 0);
    delivered.set(level.delivered);
    firstAttempts.set({ outcome: 'delivered' }, level.firstAttemptsDelivered);
    firstAttempts.set({ outcome: 'failed' }, level.firstAttempts - level.firstAttemptsDelivered);
  };

  return {
    http: {
      request: (call) => {
        requests.inc({ route: call.route, method: call.method, status: String(call.status) });
        latency.observe({ route: call.route, method: call.method }, call.seconds);
      },
      rateLimited: () => rateLimited.inc(),
      storeError: () => storeErrors.inc({ source: 'request' }),
    },
    async scrape() {
      try {
        const snapshot = await snapshots.get();
        show(snapshot, deps.clock());
        storeUp.set(1);
      } catch {
        // The last values read stay; the scrape says they are stale.
        storeUp.set(0);
        storeErrors.inc({ source: 'scrape' });
      }
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
