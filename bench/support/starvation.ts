import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../src/config/config.ts';
import { openStore } from '../../src/store/connect.ts';
import type { Database } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { insertOutboxEvents } from '../../src/store/repositories/outbox-repo.ts';
import { deliveryDepsFromConfig, type DeliveryDeps } from '../../src/sync/delivery/delivery-deps.ts';
import { benchEvent, seedBenchFleet } from './bench-fleet.ts';
import { dropStore, freshStore } from './setup.ts';

export const HANGING = 9;
export const HANGING_EVENTS = 20;
export const HEALTHY_EVENTS = 57;
/** The before-figures' run on main never ended by itself; it is stopped here. */
export const CAP_MS = 300_000;

type Deliver = (db: Kysely<Database>, deps: DeliveryDeps, runId: string) => Promise<unknown>;

/** What the 9-hanging-1-healthy case measured: seconds from the run's start. */
export interface StarvationFigures {
  healthyLastS: number | null;
  healthyDelivered: number;
  runS: number;
  endedByItself: boolean;
  /** Hanging partners' events still pending (to be tried by a later run), of HANGING × HANGING_EVENTS. */
  hangingPending: number;
  hangingLost: number;
}

/**
 * 10 partners: 9 endpoints that never answer (the receiver holds the request), 1 that answers 200
 * at once with 57 events; the shipped defaults (timeout, concurrency) from `config`. One delivery
 * run; stopped after CAP_MS if it has not ended by then.
 */
export async function starvationCase(
  dialect: 'sqlite' | 'postgres',
  config: Config,
  receiverBase: string,
  deliver: Deliver,
): Promise<StarvationFigures> {
  const name = `svc_bench_starve_${process.pid}`;
  const { url } = await freshStore(dialect, name);
  const store = await openStore(url, { poolSize: dialect === 'postgres' ? config.webhookConcurrency + 2 : undefined });
  const now = new Date().toISOString();
  try {
    await migrateToLatest(store.db);
    const partners = Array.from({ length: HANGING + 1 }, (_, i) => `ptn_starve_${i}`);
    const healthy = partners.at(-1)!;
    await seedBenchFleet(store.db, partners, (p) => `${receiverBase}/${p === healthy ? 'hook' : 'hang'}`, now);
    const rows = partners.flatMap((p) =>
      Array.from({ length: p === healthy ? HEALTHY_EVENTS : HANGING_EVENTS }, (_, i) => benchEvent(`evt_${randomUUID()}`, p, i, now)),
    );
    await insertOutboxEvents(store.db, rows);
    const drain = new AbortController();
    const cancel = new AbortController();
    let healthyLast: number | null = null;
    let healthyDelivered = 0;
    const started = performance.now();
    const fetchAndTime: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if ((input instanceof Request ? input.url : String(input)).endsWith('/hook') && res.ok) {
        healthyDelivered += 1;
        healthyLast = performance.now() - started;
      }
      return res;
    };
    const deps = deliveryDepsFromConfig(
      config,
      { clock: () => new Date(), wallClock: () => new Date() },
      { fetch: fetchAndTime, drain: drain.signal, cancel: cancel.signal },
    );
    const cap = setTimeout(() => {
      drain.abort();
      cancel.abort();
    }, CAP_MS);
    await deliver(store.db, deps, 'run_starve');
    clearTimeout(cap);
    const runMs = performance.now() - started;
    const left = await store.db
      .selectFrom('outbox_events')
      .select(['status', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('partner_id', '!=', healthy)
      .groupBy('status')
      .execute();
    const count = (s: string) => Number(left.find((r) => r.status === s)?.n ?? 0);
    return {
      healthyLastS: healthyLast === null ? null : Number(healthyLast) / 1000,
      healthyDelivered,
      runS: runMs / 1000,
      endedByItself: !drain.signal.aborted,
      hangingPending: count('pending'),
      hangingLost: HANGING * HANGING_EVENTS - count('pending') - count('delivered'),
    };
  } finally {
    await store.close();
    await dropStore(dialect, name);
  }
}
