import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { PREPARED_PER_CONNECTION, preparedStatements } from './pg-prepared.ts';

export interface PoolOptions {
  /** Fail a query (and drop its connection) when the store has not answered after this long. */
  timeoutMs?: number;
  /** Most statements kept prepared per connection. */
  preparedPerConnection?: number;
}

/**
 * The pg pool as Kysely sees it: every query runs as a named prepared statement where that helps
 * (./pg-prepared.ts) and, given `timeoutMs`, gives up after it, so a store that stops answering
 * (a network partition, a failover that moved the address, a hung server) fails a request instead
 * of holding it for ever. pg's own `query_timeout` would hand the connection back still waiting
 * for the lost answer, and every later query on it would queue behind that answer; here the
 * client of a timed-out query is released with an error, which makes the pool close its socket
 * and open a fresh connection next time. Cursors (streams) are passed through untimed.
 */
export function kyselyPool(pool: pg.Pool, { timeoutMs, preparedPerConnection = PREPARED_PER_CONNECTION }: PoolOptions = {}): PostgresPool {
  // One wrapper per pg client, so Kysely (which keys its connection objects by the client it is
  // handed) reuses its own instead of making one per query.
  const wrappers = new WeakMap<pg.PoolClient, { client: PostgresPoolClient; lost?: Error }>();
  function wrap(client: pg.PoolClient) {
    // The client's prepared statements live and die with it (and its connection).
    const prepared = preparedStatements(client, preparedPerConnection);
    const wrapper: { client: PostgresPoolClient; lost?: Error } = { client: { query, release: () => client.release(wrapper.lost) } };
    function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>) {
      if (typeof sqlOrCursor !== 'string') return (client as unknown as PostgresPoolClient).query(sqlOrCursor);
      const running = prepared.query(sqlOrCursor, parameters ?? []) as unknown as Promise<PostgresQueryResult<R>>;
      if (!timeoutMs) return running;
      return new Promise<PostgresQueryResult<R>>((resolve, reject) => {
        const timer = setTimeout(() => {
          wrapper.lost = new Error(`the store did not answer within ${timeoutMs} ms`);
          reject(wrapper.lost);
        }, timeoutMs);
        // Settling after the timeout is a no-op; handling the rejection here keeps it from going unhandled.
        running.then(
          (result) => (clearTimeout(timer), resolve(result)),
          (err: Error) => (clearTimeout(timer), reject(err)),
        );
      });
    }
    return wrapper;
  }
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      wrapper.lost = undefined;
      return wrapper.client;
    },
    end: () => pool.end(),
  };
}
