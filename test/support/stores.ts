import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/connect.ts';
import { adminQuery, createTestDatabase, databaseUrl, PG_ADMIN_URL } from './pg-admin.ts';
import { createMigratedPostgres, writeMigratedSqlite } from './store-templates.ts';

export { adminQuery, PG_ADMIN_URL } from './pg-admin.ts';

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

/** Whether the Postgres half of store tests runs (Postgres answered when this module loaded). */
export const postgresRuns = (): boolean => pgSkip === false;

function pgMissing(): string {
  if (process.env.CI === 'true') throw new Error(`Postgres is required under CI but does not answer at ${PG_ADMIN_URL}`);
  return `Postgres does not answer at ${PG_ADMIN_URL}: Postgres half skipped (set SVC_TEST_PG_URL)`;
}

/** A fresh store of one dialect, empty unless asked for migrated; `dispose` removes it. */
export interface TestStore {
  url: string;
  dispose(): Promise<void>;
}

/** With `migrated`, the store holds the latest schema (a copy of a migrated template, test/support/store-templates.ts). */
export async function createSqliteStoreUrl(options: { migrated?: boolean } = {}): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  if (options.migrated) await writeMigratedSqlite(join(dir, 'svc.db'));
  return { url: `sqlite:${join(dir, 'svc.db')}`, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** With `migrated`, the database holds the latest schema (a copy of a migrated template, test/support/store-templates.ts). */
export async function createPostgresStoreUrl(options: { migrated?: boolean } = {}): Promise<TestStore> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  if (options.migrated) await createMigratedPostgres(name);
  else await createTestDatabase(name);
  return {
    url: databaseUrl(name),
    dispose: () => adminQuery(`drop database if exists ${name} with (force)`).then(() => {}),
  };
}

export type DialectLabel = 'sqlite' | 'postgres';

/**
 * Runs `body` once per dialect inside `describe('<name> [dialect]')`. `body` receives a getter
 * for a migrated store (a copy of a migrated template) that is fresh for this describe block, or,
 * with `storePerTest`, fresh for each test: for tests that each need a store nobody else wrote
 * to (an empty list, exact counts), whose seeding then goes in `beforeEach` or the test itself.
 * Where Postgres does not answer, its half is skipped with a message, except under CI=true,
 * where that is a failure.
 */
export function describeEachStore(
  name: string,
  body: (ctx: { store: () => Store; url: () => string; dialect: DialectLabel }) => void,
  options: { migrate?: boolean; storePerTest?: boolean } = {},
): void {
  const migrated = options.migrate !== false;
  const [open, close] = options.storePerTest ? [beforeEach, afterEach] : [before, after];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && pgSkip) {
      // A skipped test, not a skipped suite: node:test counts only tests in its "# skipped" line.
      it(`${name} [${dialect}]`, { skip: pgSkip }, () => {});
      continue;
    }
    describe(`${name} [${dialect}]`, () => {
      let store: Store | undefined;
      let test: TestStore | undefined;
      open(async () => {
        test = dialect === 'sqlite' ? await createSqliteStoreUrl({ migrated }) : await createPostgresStoreUrl({ migrated });
        store = await openStore(test.url);
      });
      body({
        store: () => {
          if (!store) throw new Error('store not ready');
          return store;
        },
        url: () => test!.url,
        dialect,
      });
      // Registered after the body's hooks, so it runs after them (node:test runs `after` and
      // `afterEach` hooks in the order they were registered): what the body opened on the store
      // closes first.
      close(async () => {
        await store?.close();
        await test?.dispose();
        store = undefined;
        test = undefined;
      });
    });
  }
}
