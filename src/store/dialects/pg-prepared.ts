import type pg from 'pg';

/**
 * Server-side prepared statements for the queries Kysely sends. Kysely hands pg bare SQL text, so
 * every call made Postgres parse and plan it anew; pg prepares a statement once per connection
 * when the query carries a `name`, and afterwards sends only Bind/Execute. Each connection's
 * statements are held by the object `preparedStatements` makes for it (one per pg client, made in
 * ./pg-pool.ts), keyed by SQL text: a text gets a name of its own the first time it runs there,
 * `svc_1`, `svc_2`…, never reused on that connection, so pg never sees one name for two texts.
 *
 * pg remembers the names it prepared on a connection (`connection.parsedStatements`) and never
 * forgets them; Postgres keeps them until the connection closes. The number per connection is
 * therefore bounded here: past `limit` (PREPARED_PER_CONNECTION), the least recently used
 * statement is closed (DEALLOCATE, queued ahead of the statement that evicted it) and forgotten by
 * pg too. Prepared statements are not transactional: a rollback keeps them, so only what Postgres
 * refused to parse is forgotten after an error. The transaction status is pg's from the last
 * ReadyForQuery, which may arrive just after a statement's error: read then, a failed transaction
 * can still say T. Both readings are safe: a statement named there fails as any would and its
 * name is forgotten; a DEALLOCATE sent there fails and leaves a name Postgres holds until the
 * connection closes, never used again. The pg internals this relies on are checked by
 * test/store/pg-internals.test.ts.
 */

/** Most statements a connection keeps prepared, by default. */
export const PREPARED_PER_CONNECTION = 200;

/**
 * Most parameters of a statement worth naming. Beyond it are bulk statements (multi-row inserts,
 * long IN lists of a sync page) whose text varies with their row or list count: named, they would
 * churn the per-connection names (each eviction a DEALLOCATE) and keep large plans per connection,
 * to save a parse that is small beside their execution.
 */
export const MAX_NAMED_PARAMETERS = 64;

/** The queries of one pg connection, run as named prepared statements where that helps. */
export interface PreparedStatements {
  query<R extends pg.QueryResultRow>(sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult<R>>;
}

/** Statements that gain nothing from a name: bulk ones, transaction control, DDL, several statements in one text. */
function worthNaming(sql: string, parameters: readonly unknown[]): boolean {
  if (parameters.length > MAX_NAMED_PARAMETERS) return false;
  if (parameters.length > 0) return true;
  return /^\s*(select|with)\b/i.test(sql) && !sql.includes(';');
}

/** pg's own record of the names it parsed on the connection (internal, present since pg 2 and in pg 8). */
function parsedStatements(client: pg.ClientBase): Record<string, string> | undefined {
  return (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
}

/**
 * The prepared statements of `client`, at most `limit` at a time. Make one per client, for its
 * whole life: the names it gives are unique only among its own.
 */
export function preparedStatements(client: pg.ClientBase, limit = PREPARED_PER_CONNECTION): PreparedStatements {
  /** Names Postgres holds by SQL text, least recently used first. */
  const names = new Map<string, string>();
  /** Names to close before the next statement that may (evicted, or invalidated by a schema change). */
  let retired: string[] = [];
  let named = 0;

  /**
   * Closes retired names: pg forgets them and DEALLOCATE goes into the connection's queue ahead
   * of the statement being sent, so it costs no wait of its own. Not while a transaction has
   * failed: Postgres refuses every statement but ROLLBACK there.
   */
  function closeRetired(parsed: Record<string, string>): void {
    for (const name of retired) {
      delete parsed[name];
      // It fails only with the connection, which takes its statements with it.
      client.query(`deallocate "${name}"`).catch(() => {});
    }
    retired = [];
  }

  /**
   * The name to run `sql` under, or undefined to run it unnamed: statements not worth naming, new
   * ones while the transaction has failed (Postgres would refuse them anyway), and all of them
   * should pg no longer keep the record this relies on.
   */
  function nameFor(sql: string, parameters: readonly unknown[]): string | undefined {
    const parsed = parsedStatements(client);
    if (!parsed || !worthNaming(sql, parameters)) return undefined;
    const failed = client.getTransactionStatus() === 'E';
    if (!failed && retired.length > 0) closeRetired(parsed);
    const known = names.get(sql);
    if (known !== undefined) {
      names.delete(sql);
      names.set(sql, known);
      return known;
    }
    if (failed) return undefined;
    if (names.size >= limit) {
      const [oldest, name] = names.entries().next().value!;
      names.delete(oldest);
      retired.push(name);
      closeRetired(parsed);
    }
    const name = `svc_${++named}`;
    names.set(sql, name);
    return name;
  }

  /**
   * After a failed named statement: a name Postgres never parsed is forgotten (closing it later
   * would fail, and inside a transaction abort it). One prepared before DDL changed the columns it
   * returns (`select *` after a migration added one) fails for good with "cached plan must not
   * change result type": it is retired, and true is returned.
   */
  function afterError(sql: string, name: string, err: unknown): boolean {
    if (parsedStatements(client)?.[name] === undefined) {
      names.delete(sql);
      return false;
    }
    const failure = err as { code?: string; message?: string };
    if (failure.code !== '0A000' || !/cached plan must not change result type/.test(failure.message ?? '')) return false;
    names.delete(sql);
    retired.push(name);
    return true;
  }

  return {
    /**
     * A statement invalidated by a schema change is closed, prepared again and retried once when
     * no transaction is open (nothing ran); inside a transaction the error stands, as any other
     * would, and the next call prepares it afresh.
     */
    async query<R extends pg.QueryResultRow>(sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult<R>> {
      const values = parameters as unknown[];
      const name = nameFor(sql, parameters);
      if (name === undefined) return client.query<R>(sql, values);
      try {
        return await client.query<R>({ name, text: sql, values });
      } catch (err) {
        if (!afterError(sql, name, err) || client.getTransactionStatus() !== 'I') throw err;
        return client.query<R>({ name: nameFor(sql, parameters), text: sql, values });
      }
    },
  };
}
