import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';

/** Where Postgres tests create their throwaway databases. */
export const PG_ADMIN_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probePostgres(): Promise<boolean> {
  // Generous: a test file's CPU-bound setup (schema compiles) can hold the event loop for seconds on a loaded machine.
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 15_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Probed once, when this module loads (top-level await), so `describeEachStore` registers its
 * suites synchronously: an async `describe` callback lets node:test file the suite's tests under
 * whichever suite is running when the probe settles, and report the right one empty.
 */
const pgSkip: string | false = (await probePostgres()) ? false : pgMissing();

function pgMissing(): string {
  if (process.env.CI === 'true') throw new Error(`Postgres is required under CI but does not answer at ${PG_ADMIN_URL}`);
  return `Postgres does not answer at ${PG_ADMIN_URL}: Postgres half skipped (set SVC_TEST_PG_URL)`;
}

/** Runs one statement on the admin database (creating and dropping test databases and roles). */
export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A fresh, empty store of one dialect; `dispose` removes it. */
export interface TestStore {
  url: string;
  dispose(): Promise<void>;
}

export async function createSqliteStoreUrl(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  return { url: `sqlite:${join(dir, 'svc.db')}`, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function createPostgresStoreUrl(): Promise<TestStore> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dispose: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

export type DialectLabel = 'sqlite' | 'postgres';

/**
 * Runs `body` once per dialect inside `describe('<name> [dialect]')`. `body` receives a getter
 * for a migrated store that is fresh for this describe block. Where Postgres does not answer,
 * its half is skipped with a message, except under CI=true, where that is a failure.
 */
export function describeEachStore(
  name: string,
  body: (ctx: { store: () => Store; url: () => string; dialect: DialectLabel }) => void,
  options: { migrate?: boolean } = {},
): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && pgSkip) {
      // A skipped test, not a skipped suite: node:test counts only tests in its "# skipped" line.
      it(`${name} [${dialect}]`, { skip: pgSkip }, () => {});
      continue;
    }
    describe(`${name} [${dialect}]`, () => {
      let store: Store | undefined;
      let test: TestStore | undefined;
      before(async () => {
        test = dialect === 'sqlite' ? await createSqliteStoreUrl() : await createPostgresStoreUrl();
        store = await openStore(test.url);
        if (options.migrate !== false) await migrateToLatest(store.db);
      });
      body({
        store: () => {
          if (!store) throw new Error('store not ready');
          return store;
        },
        url: () => test!.url,
        dialect,
      });
      // Registered after the body's hooks, so it runs after them (node:test runs `after` hooks in
      // the order they were registered): what the body opened on the store closes first.
      after(async () => {
        await store?.close();
        await test?.dispose();
      });
    });
  }
}
