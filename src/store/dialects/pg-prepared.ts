import { createHash } from 'node:crypto';
import type pg from 'pg';
import { boundedMemo } from '../../domain/bounded-memo.ts';

/**
 * Server-side prepared statements for the queries Kysely sends. Kysely hands pg bare SQL text, so
 * every call made Postgres parse and plan it anew; pg prepares a statement once per connection
 * when the query carries a `name`, and afterwards sends only Bind/Execute. Here each query gets a
 * name derived from a hash of its SQL text, so the same text always gets the same name and
 * different texts never share one (pg refuses a name reused for different SQL).
 *
 * pg remembers the names it prepared on a connection (`connection.parsedStatements`) and never
 * forgets them; Postgres keeps them until the connection closes. The number per connection is
 * therefore bounded here: past `limit` (PREPARED_PER_CONNECTION), the least recently used name is
 * closed (DEALLOCATE, queued ahead of the statement that evicted it) and forgotten by pg too.
 * Prepared statements are not transactional: a rollback keeps them, so only what Postgres refused
 * to parse is forgotten after an error.
 */

/** What this module prepared on one connection. */
interface Prepared {
  /** Names Postgres holds, least recently used first. */
  readonly names: Map<string, string>;
  /** Names to close before the next statement that may (evicted, or invalidated by a schema change). */
  retired: string[];
}

const states = new WeakMap<pg.ClientBase, Prepared>();
const NAME_CACHE = 4096;

/** Most statements a connection keeps prepared, by default. */
export const PREPARED_PER_CONNECTION = 200;

/**
 * Most parameters of a statement worth naming. Beyond it are bulk statements (multi-row inserts,
 * long IN lists of a sync page) whose text varies with their row or list count: named, they would
 * churn the per-connection names (each eviction a DEALLOCATE) and keep large plans per connection,
 * to save a parse that is small beside their execution.
 */
export const MAX_NAMED_PARAMETERS = 64;

/** Statements that gain nothing from a name: bulk ones, transaction control, DDL, several statements in one text. */
function worthNaming(sql: string, parameters: readonly unknown[]): boolean {
  if (parameters.length > MAX_NAMED_PARAMETERS) return false;
  if (parameters.length > 0) return true;
  return /^\s*(select|with)\b/i.test(sql) && !sql.includes(';');
}

const nameOf = boundedMemo(NAME_CACHE, (sql: string) => `svc_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`);

/** pg's own record of the names it parsed on the connection (internal, present since pg 2 and in pg 8). */
function parsedStatements(client: pg.ClientBase): Record<string, string> | undefined {
  return (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
}

/**
 * Closes retired names: pg forgets them (so a later use parses again) and DEALLOCATE goes into
 * the connection's queue ahead of the statement being sent, so it costs no wait of its own. Not
 * while a transaction has failed: Postgres refuses every statement but ROLLBACK there.
 */
function closeRetired(client: pg.ClientBase, state: Prepared, parsed: Record<string, string>): void {
  for (const name of state.retired) {
    delete parsed[name];
    // It fails only with the connection, which takes its statements with it.
    client.query(`deallocate "${name}"`).catch(() => {});
  }
  state.retired = [];
}

/**
 * The name to run `sql` under on `client`, or undefined to run it unnamed: statements not worth
 * naming, new ones while the transaction has failed (Postgres would refuse them anyway), and all of
 * them should pg no longer keep the record this relies on.
 */
function nameFor(client: pg.ClientBase, sql: string, parameters: readonly unknown[], limit: number): string | undefined {
  const parsed = parsedStatements(client);
  if (!parsed || !worthNaming(sql, parameters)) return undefined;
  let state = states.get(client);
  if (!state) states.set(client, (state = { names: new Map(), retired: [] }));
  const name = nameOf(sql);
  const failed = client.getTransactionStatus() === 'E';
  if (!failed && state.retired.length > 0) closeRetired(client, state, parsed);
  if (state.names.delete(name)) {
    state.names.set(name, sql);
    return name;
  }
  if (failed || state.retired.includes(name)) return undefined;
  if (state.names.size >= limit) {
    const [oldest] = state.names.keys();
    state.names.delete(oldest!);
    state.retired.push(oldest!);
    closeRetired(client, state, parsed);
  }
  state.names.set(name, sql);
  return name;
}

/**
 * After a failed named statement: a name Postgres never parsed is forgotten (closing it later would
 * fail, and inside a transaction abort it). One prepared before DDL changed the columns it returns
 * (`select *` after a migration added one) fails for good with "cached plan must not change result
 * type": it is retired, and true is returned.
 */
function afterError(client: pg.ClientBase, name: string, err: unknown): boolean {
  const state = states.get(client);
  if (!state) return false;
  if (parsedStatements(client)?.[name] === undefined) {
    state.names.delete(name);
    return false;
  }
  const failure = err as { code?: string; message?: string };
  if (failure.code !== '0A000' || !/cached plan must not change result type/.test(failure.message ?? '')) return false;
  state.names.delete(name);
  state.retired.push(name);
  return true;
}

/**
 * Runs one Kysely query on `client` as a named prepared statement where that helps. A statement
 * invalidated by a schema change is closed, prepared again and retried once when no transaction is
 * open (nothing ran); inside a transaction the error stands, as any other would, and the next call
 * prepares it afresh.
 */
export async function preparedQuery<R extends pg.QueryResultRow>(
  client: pg.ClientBase,
  sql: string,
  parameters: readonly unknown[],
  limit = PREPARED_PER_CONNECTION,
): Promise<pg.QueryResult<R>> {
  const name = nameFor(client, sql, parameters, limit);
  if (name === undefined) return client.query<R>(sql, parameters as unknown[]);
  try {
    return await client.query<R>({ name, text: sql, values: parameters as unknown[] });
  } catch (err) {
    if (!afterError(client, name, err) || client.getTransactionStatus() !== 'I') throw err;
    return client.query<R>({ name: nameFor(client, sql, parameters, limit), text: sql, values: parameters as unknown[] });
  }
}
