import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../../src/config/config.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { insertOutboxEvents } from '../../src/store/repositories/outbox-repo.ts';
import { deliveryDepsFromConfig } from '../../src/sync/delivery/delivery-deps.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { benchEvent, seedBenchFleet } from './bench-fleet.ts';
import { fillOutboxHistory } from './outbox-history.ts';
import { freshStore, PG_ADMIN_URL, storeUrl } from './setup.ts';

export type Dialect = 'sqlite' | 'postgres';

/** The settings row that marks a store as filled, with the size of its history. */
const FILLED = 'bench.outbox_history';

async function storeExists(dialect: Dialect, name: string): Promise<boolean> {
  if (dialect === 'sqlite') return existsSync(`.bench/${name}.db`);
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

/**
 * A store of the bench fleet whose outbox holds `finished` delivered and dead events: kept across
 * runs as `.bench/svc_bench_outbox_<finished>.db` or the Postgres database of that name (it takes
 * minutes to fill), migrated to the latest schema on each open, its endpoints pointed at `receiverUrl`.
 */
export async function outboxStore(
  dialect: Dialect,
  finished: number,
  partners: readonly string[],
  receiverUrl: string,
  config: Config,
): Promise<Store> {
  const name = `svc_bench_outbox_${finished}`;
  const poolSize = dialect === 'postgres' ? config.webhookConcurrency + 2 : undefined;
  if (await storeExists(dialect, name)) {
    const store = await openStore(storeUrl(dialect, name), { poolSize });
    // A store migrated by another checkout (a migration this one lacks, or one named before its
    // latest) is filled again rather than trusted.
    const migrated = await migrateToLatest(store.db).then(
      () => true,
      () => false,
    );
    const mark = migrated ? await store.db.selectFrom('settings').select('value').where('name', '=', FILLED).executeTakeFirst() : undefined;
    if (mark?.value === String(finished)) {
      await store.db.updateTable('webhook_endpoints').set({ url: receiverUrl }).execute();
      // An interrupted run's claims: let go at once, so that what it left is due now, not later.
      await store.db.updateTable('outbox_events').set({ locked_by: null, locked_until: null }).where('status', '=', 'pending').execute();
      return store;
    }
    await store.close();
  }
  const { url } = await freshStore(dialect, name);
  const store = await openStore(url, { poolSize });
  await migrateToLatest(store.db);
  const now = new Date().toISOString();
  await seedBenchFleet(store.db, partners, () => receiverUrl, now);
  const started = performance.now();
  await fillOutboxHistory(store.db, partners, finished);
  process.stderr.write(
    `  ${dialect}: filled ${finished.toLocaleString('en')} finished events in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  await store.db
    .insertInto('settings')
    .values({ name: FILLED, value: String(finished) })
    .execute();
  return store;
}

/**
 * Adds `count` events due now, of `partners` in turn, numbered after the store's due events before
 * them, with time-ordered ids as the sync diff gives them (src/sync/diff/run-diff.ts): random ids
 * would scatter each run's rows over the whole primary key, a cost of the bench, not of svc.
 */
export async function addDueEvents(store: Store, partners: readonly string[], count: number): Promise<void> {
  const now = new Date().toISOString();
  const top = await store.db
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.max('sequence').as('s'))
    .where('sequence', '<', 10_000_000)
    .executeTakeFirst();
  const base = Number(top?.s ?? 0);
  await insertOutboxEvents(
    store.db,
    Array.from({ length: count }, (_, i) => benchEvent(`evt_${uuidv7()}`, partners[i % partners.length]!, base + i, now)),
  );
}

/** One delivery run of what is due, as `svc sync` runs it: events delivered, and how many a second. */
export async function deliverAllDue(store: Store, config: Config): Promise<{ rate: number; delivered: number }> {
  const deps = deliveryDepsFromConfig(config, { clock: () => new Date(), wallClock: () => new Date() });
  const started = performance.now();
  const report = await deliverDue(store.db, deps, `run_${randomUUID()}`);
  const seconds = (performance.now() - started) / 1000;
  return { rate: report.totals.delivered / seconds, delivered: report.totals.delivered };
}

/** One delivery run of `due` new events of `partners` beside the store's history. */
export async function deliverBeside(
  store: Store,
  partners: readonly string[],
  due: number,
  config: Config,
): Promise<{ rate: number; delivered: number }> {
  await addDueEvents(store, partners, due);
  return deliverAllDue(store, config);
}
