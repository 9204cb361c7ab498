import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.ts';
import type { StoreOptions } from '../store-options.ts';
import { kyselyPool } from './pg-pool.ts';

/** Kysely over a pg pool; loaded by openStore only for a postgres:// URL, so SQLite commands never load pg. */
export function postgresKysely(url: string, options: StoreOptions): Kysely<Database> {
  const timeoutMs = options.timeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: timeoutMs ?? 5000,
    // The server gives up too, and first (at three quarters of the timeout, counted from when the
    // statement reached it), so a statement this client abandons has already been cancelled there:
    // one that waited on a lock never commits after the call has failed.
    ...(timeoutMs ? { statement_timeout: Math.max(1, Math.floor((timeoutMs * 3) / 4)) } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor one that is checked out: pg emits the dead socket's error on the client besides failing
  // its queries, and a checked-out client has no listener of the pool's (background writers such
  // as the audit log and rate-limit claims hold clients at moments no request does).
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: kyselyPool(pool, { timeoutMs }) }), log: options.log });
}
