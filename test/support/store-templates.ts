import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { adminQuery, createTestDatabase, databaseUrl } from './pg-admin.ts';
import { sourceDigest } from './source-digest.ts';

/*
 * A migrated store is copied, not migrated again, for each suite: a copy of a Postgres database
 * (`create database … template …`) takes about a third of creating one and running the 13
 * migrations, and a SQLite file copy next to nothing. Each template is named by a digest of what
 * the schema is made from (src/store/: migrations, migrator, dialects; package-lock.json: Kysely),
 * so a template of another schema is never copied; it is built once per change of those files,
 * by whichever test file needs it first, under a name of its own and renamed into place whole.
 * The Postgres template also carries the run's tag (SVC_TEST_RUN, set by scripts/run-tests.mjs),
 * so that a run drops its own at the end and never one another run is copying; the SQLite one
 * lives in the run's temporary folder, removed with it.
 */

const schemaDigest = () => sourceDigest(['src/store', 'package-lock.json']);

let digest: string | undefined;
const digestOnce = () => (digest ??= schemaDigest());

/** Template databases of any schema begun over a day ago are dropped (no run takes that long). */
const TEMPLATE_LIFETIME_MS = 24 * 3_600_000;

async function migrate(url: string): Promise<void> {
  const store = await openStore(url);
  try {
    await migrateToLatest(store.db);
  } finally {
    await store.close();
  }
}

/** The run's tag: letters and digits only, as it goes into a database name. */
const runTag = () => (process.env.SVC_TEST_RUN ?? 'solo').replace(/[^a-z0-9]/g, '');

let pgTemplate: Promise<string> | undefined;

/** The name of the migrated template database of this schema, built when missing. */
function postgresTemplate(): Promise<string> {
  pgTemplate ??= (async () => {
    const name = `svc_tpl_${digestOnce()}_${runTag()}`;
    const exists = async () => (await adminQuery('select 1 from pg_database where datname = $1', [name])).length > 0;
    if (await exists()) return name;
    const building = `${name}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    await createTestDatabase(building);
    try {
      await migrate(databaseUrl(building));
      await adminQuery(`comment on database ${building} is '${Date.now()}'`);
      await adminQuery(`alter database ${building} rename to ${name}`);
    } catch (err) {
      await adminQuery(`drop database if exists ${building} with (force)`);
      // Another test file built it meanwhile.
      if (await exists()) return name;
      throw err;
    }
    await dropOldTemplates();
    return name;
  })();
  return pgTemplate;
}

/** When each template (from its comment) or unfinished build (from its name) was begun. */
async function dropOldTemplates(): Promise<void> {
  const rows = await adminQuery(
    "select datname, shobj_description(oid, 'pg_database') as begun from pg_database where datname like 'svc\\_tpl\\_%'",
  );
  for (const { datname, begun } of rows) {
    // An unfinished build is named svc_tpl_<digest>_<run>_<began, base 36>_<random>.
    const at = begun ? Number(begun) : parseInt(String(datname).split('_').at(-2) ?? '', 36);
    if (at < Date.now() - TEMPLATE_LIFETIME_MS) await adminQuery(`drop database if exists ${String(datname)} with (force)`).catch(() => {});
  }
}

/**
 * Creates Postgres database `name` holding the latest schema: a copy of the template, or, where
 * no copy can be made (the template is being dropped, the role may not copy it), migrated afresh.
 */
export async function createMigratedPostgres(name: string): Promise<void> {
  try {
    await createTestDatabase(name, await postgresTemplate());
    return;
  } catch {
    pgTemplate = undefined;
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
  await createTestDatabase(name);
  await migrate(databaseUrl(name));
}

/** Writes a SQLite store holding the latest schema to `path`: a copy of this schema's template file. */
export async function writeMigratedSqlite(path: string): Promise<void> {
  const template = join(tmpdir(), `svc-test-template-${digestOnce()}.db`);
  if (!existsSync(template)) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-template-'));
    try {
      await migrate(`sqlite:${join(dir, 'svc.db')}`);
      // Closed, the store is whole in its one file (the write-ahead log is checkpointed and removed).
      renameSync(join(dir, 'svc.db'), template);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  copyFileSync(template, path);
}
