import { mkdirSync, rmSync } from 'node:fs';
import pg from 'pg';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { generateData, type GenerateOptions } from '../../src/services/generate/generate-data.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { listPartners } from '../../src/store/repositories/partners-repo.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';

export const PG_ADMIN_URL = process.env.SVC_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Where freshStore puts a benchmark's store: `.bench/<name>.db` or a Postgres database `<name>`. */
export function storeUrl(dialect: 'sqlite' | 'postgres', name: string): string {
  if (dialect === 'sqlite') return `sqlite:.bench/${name}.db`;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh store of a dialect for one benchmark: `.bench/<name>.db` or a Postgres database `<name>`. */
export async function freshStore(dialect: 'sqlite' | 'postgres', name: string): Promise<{ url: string }> {
  if (dialect === 'sqlite') {
    mkdirSync('.bench', { recursive: true });
    for (const ext of ['', '-wal', '-shm']) rmSync(`.bench/${name}.db${ext}`, { force: true });
    return { url: storeUrl(dialect, name) };
  }
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  return { url: storeUrl(dialect, name) };
}

/** Removes a store made by freshStore. */
export async function dropStore(dialect: 'sqlite' | 'postgres', name: string): Promise<void> {
  if (dialect === 'sqlite') {
    for (const ext of ['', '-wal', '-shm']) rmSync(`.bench/${name}.db${ext}`, { force: true });
    return;
  }
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}

export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Migrates, loads the catalogue and generates data; prints progress on stderr. */
export async function seed(url: string, options: Omit<GenerateOptions, 'onProgress'>, now = new Date()): Promise<Store> {
  const store = await openStore(url);
  await migrateToLatest(store.db);
  await loadFixtures(store.db, ['data/requirements.json'], () => now);
  const started = Date.now();
  await generateData(
    store.db,
    {
      ...options,
      onProgress: (done, total) => process.stderr.write(`\r  generating ${done}/${total} crew`),
    },
    () => now,
  );
  process.stderr.write(` (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  return store;
}

export async function partnerKey(store: Store, partnerId: string): Promise<string> {
  return (await issuePartnerKey(store.db, partnerId, 'live', () => new Date())).key;
}

/** An active endpoint for every partner of the store, at `url`, subscribed to every event type. */
export async function activeEndpoints(store: Store, url: string, at: string): Promise<void> {
  for (const p of await listPartners(store.db))
    await insertEndpoint(store.db, {
      endpointId: `whe_${p.partnerId}`,
      partnerId: p.partnerId,
      url,
      subscribedEvents: [...EVENT_TYPES],
      secret: 'whsec_bench',
      status: 'active',
      createdAt: at,
      updatedAt: at,
    });
}
