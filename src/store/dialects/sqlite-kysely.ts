import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import type { StoreOptions } from '../store-options.ts';
import { Sqlite3Dialect } from './sqlite3-driver.ts';

/** Kysely over sqlite3; loaded by openStore only for a sqlite: URL, so Postgres commands never load sqlite3. */
export function sqliteKysely(path: string, options: StoreOptions): Kysely<Database> {
  const create = options.create ?? true;
  if (path !== ':memory:' && create) mkdirSync(dirname(resolve(path)), { recursive: true });
  return new Kysely<Database>({
    dialect: new Sqlite3Dialect({ filename: path, poolSize: options.poolSize, busyTimeoutMs: options.timeoutMs, create }),
    log: options.log,
  });
}
