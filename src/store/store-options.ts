import type { LogConfig } from 'kysely';

// Apart from connect.ts so the dialect modules it loads on demand need not import it back.
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
