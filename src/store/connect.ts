import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, type LogConfig } from 'kysely';
import pg from 'pg';
import { AppError } from '../domain/app-error.ts';
import type { Database } from './database.ts';
import type { DialectName } from './dialect-of.ts';
import { kyselyPool } from './dialects/pg-pool.ts';
import { Sqlite3Dialect } from './dialects/sqlite3-driver.ts';

/** An open store: the Kysely handle, which dialect it speaks, and how to close it. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** The URL with any password masked, for messages and logs. */
  readonly displayUrl: string;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Postgres pool size / SQLite connection count. */
  poolSize?: number;
  /**
   * How long the store may keep a caller waiting before the query fails. Postgres: to connect
   * (default 5 s) and for each statement (default unbounded: batch commands run long ones).
   * SQLite: the busy timeout, for the write lock (default 5 s).
   */
  timeoutMs?: number;
  /**
   * Create a missing SQLite file and its folder (default true). Commands that only use a store
   * pass false, so a mistyped path is reported instead of becoming an empty store.
   */
  create?: boolean;
  /** Kysely's query log (the plan benchmark records the statements a request sends). */
  log?: LogConfig;
}

/** Parses a store URL: `sqlite:PATH`, `sqlite::memory:`, or `postgres://…` / `postgresql://…`. */
export function parseStoreUrl(url: string): { dialect: DialectName; target: string } {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { dialect: 'postgres', target: url };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new AppError('invalid_setting', `store URL "${url}" names no file (try sqlite:data/svc.db)`);
    return { dialect: 'sqlite', target: path };
  }
  throw new AppError('invalid_setting', `store URL "${url}" is neither sqlite:PATH nor postgres://…`);
}

export function maskUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]*)@/, '//$1:***@');
}

/** Opens the store a URL names. SQLite files and their folder are created when missing, unless `create: false`. */
export async function openStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const { dialect, target } = parseStoreUrl(url);
  let db: Kysely<Database>;
  if (dialect === 'postgres') {
    const timeoutMs = options.timeoutMs;
    const pool = new pg.Pool({
      connectionString: target, max: options.poolSize ?? 10, connectionTimeoutMillis: timeoutMs ?? 5000,
      // The server gives up too, so a statement abandoned while it waited on a lock never runs later.
      ...(timeoutMs ? { statement_timeout: timeoutMs } : {}),
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    // Nor one that is checked out: pg emits the dead socket's error on the client besides failing
    // its queries, and a checked-out client has no listener of the pool's (background writers such
    // as the audit log and rate-limit claims hold clients at moments no request does).
    pool.on('connect', (client) => client.on('error', () => {}));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: kyselyPool(pool, { timeoutMs }) }), log: options.log });
  } else {
    const create = options.create ?? true;
    if (target !== ':memory:' && create) mkdirSync(dirname(resolve(target)), { recursive: true });
    db = new Kysely<Database>({
      dialect: new Sqlite3Dialect({ filename: target, poolSize: options.poolSize, busyTimeoutMs: options.timeoutMs, create }),
      log: options.log,
    });
  }
  const store: Store = { db, dialect, displayUrl: maskUrl(url), close: () => db.destroy() };
  try {
    await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
  } catch (err) {
    await store.close().catch(() => {});
    if (dialect === 'sqlite' && (err as { code?: string }).code === 'SQLITE_CANTOPEN' && !existsSync(target)) {
      throw new AppError('store_unavailable', `no store exists at ${store.displayUrl} (${resolve(target)}): ` +
        'run `svc db migrate` to create it, or point SVC_DATABASE_URL or --db at the store you meant', { cause: err });
    }
    throw new AppError('store_unavailable', `cannot open store ${store.displayUrl}: ${(err as Error).message}`, { cause: err });
  }
  return store;
}
