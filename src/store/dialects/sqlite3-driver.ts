import sqlite3 from 'sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/** Options of the sqlite3-backed Kysely dialect. */
export interface Sqlite3DialectOptions {
  /** File path, or ':memory:'. */
  filename: string;
  /** Connections kept open; reads run in parallel on the libuv pool, writes wait on the lock. */
  poolSize?: number;
  busyTimeoutMs?: number;
  /** Create the file when it is missing (default); otherwise opening a missing file fails with SQLITE_CANTOPEN. */
  create?: boolean;
}

function open(filename: string, create: boolean): Promise<sqlite3.Database> {
  const mode = sqlite3.OPEN_READWRITE | sqlite3.OPEN_FULLMUTEX | (create ? sqlite3.OPEN_CREATE : 0);
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(filename, mode, (err) => (err ? reject(err) : resolve(db)));
  });
}

function all(db: sqlite3.Database, sql: string, params: readonly unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    db.all(sql, params as unknown[], (err, rows) => (err ? reject(err) : resolve(rows)));
  });
}

/** Prepared statements by SQL text, least recently used dropped first. */
class StatementCache {
  readonly #map = new Map<string, Promise<sqlite3.Statement>>();

  constructor(
    private readonly db: sqlite3.Database,
    private readonly size = 256,
  ) {}

  get(sql: string): Promise<sqlite3.Statement> {
    let stmt = this.#map.get(sql);
    if (stmt) {
      this.#map.delete(sql);
    } else {
      stmt = new Promise((resolve, reject) => {
        const statement = this.db.prepare(sql, (err) => (err ? reject(err) : resolve(statement)));
      });
      // A statement that failed to compile is not kept.
      stmt.catch(() => this.#map.delete(sql));
      if (this.#map.size >= this.size) {
        const [oldest, evicted] = this.#map.entries().next().value as [string, Promise<sqlite3.Statement>];
        this.#map.delete(oldest);
        evicted.then(
          (s) => s.finalize(),
          () => {},
        );
      }
    }
    this.#map.set(sql, stmt);
    return stmt;
  }

  async clear(): Promise<void> {
    const all = [...this.#map.values()];
    this.#map.clear();
    await Promise.all(
      all.map((p) =>
        p.then(
          (s) => new Promise<void>((r) => s.finalize(() => r())),
          () => {},
        ),
      ),
    );
  }
}

function stmtAll(stmt: sqlite3.Statement, params: readonly unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    stmt.all(params as unknown[], (err: Error | null, rows: unknown[]) => (err ? reject(err) : resolve(rows)));
  });
}

type RunCallback = (this: sqlite3.RunResult, err: Error | null) => void;

/** A write's row count and last row id, from a run started with the callback given. */
function ran(start: (callback: RunCallback) => void): Promise<{ changes: number; lastID: number }> {
  return new Promise((resolve, reject) => {
    start(function (this: sqlite3.RunResult, err: Error | null) {
      if (err) reject(err);
      else resolve({ changes: this.changes, lastID: this.lastID });
    });
  });
}

/** Database#run: prepares, runs and finalizes one statement. */
const runOnce = (db: sqlite3.Database, sql: string, params: readonly unknown[]) => ran((cb) => db.run(sql, params as unknown[], cb));
const stmtRun = (stmt: sqlite3.Statement, params: readonly unknown[]) => ran((cb) => stmt.run(params as unknown[], cb));

function writeResult<R>(kind: string, { changes, lastID }: { changes: number; lastID: number }): QueryResult<R> {
  return {
    rows: [],
    numAffectedRows: BigInt(changes ?? 0),
    insertId: kind === 'InsertQueryNode' && lastID != null ? BigInt(lastID) : undefined,
  };
}

/**
 * SQL longer than this is compiled for one use, not cached: a batch insert's text grows with its
 * rows, each batch size is a text of its own, and kept they would fill the cache with programs of
 * thousands of operations (over 100 MB over a large sync run).
 */
const CACHED_SQL_MAX = 4_000;

const WRITE_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);
const READ_KINDS = new Set(['SelectQueryNode']);

/**
 * Raw SQL that is one SELECT (the reads of one crew member, src/store/repositories/crew-on-fleet-repo.ts):
 * a read like a built one, run beside the writes and prepared once. A text starting with SELECT is
 * a SELECT in SQLite (WITH may start an INSERT, UPDATE or DELETE, so it is not taken); without a
 * semicolon it is one statement.
 */
const RAW_SELECT = /^\s*select\b[^;]*$/i;

/** Whether a compiled query only reads: built as a SELECT, or raw SQL that is one SELECT. */
function isRead(compiled: CompiledQuery): boolean {
  const kind = (compiled.query as { kind: string }).kind;
  return READ_KINDS.has(kind) || (kind === 'RawNode' && RAW_SELECT.test(compiled.sql));
}

/**
 * One writer at a time per process. SQLite allows one writer anyway; queueing writers here instead
 * of in SQLite's busy handler keeps them from sleeping on libuv's few threads while the connection
 * that holds the lock waits for a thread to commit (a stall until the busy timeout).
 */
class WriteLock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
}

class Sqlite3Connection implements DatabaseConnection {
  /** Set while this connection runs a transaction, which holds the process's write lock. */
  releaseTransaction: (() => void) | undefined;

  readonly statements: StatementCache;

  constructor(
    readonly db: sqlite3.Database,
    private readonly writeLock: WriteLock,
  ) {
    this.statements = new StatementCache(db);
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.releaseTransaction || isRead(compiled)) return this.run<R>(compiled);
    const release = await this.writeLock.acquire();
    try {
      return await this.run<R>(compiled);
    } finally {
      release();
    }
  }

  private async run<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const node = compiled.query as { kind: string; returning?: unknown };
    // Other raw statements (transaction control, DDL, pragmas) are rare and may not be preparable once.
    if (node.kind === 'RawNode' && !RAW_SELECT.test(compiled.sql))
      return { rows: (await all(this.db, compiled.sql, compiled.parameters)) as R[] };
    const write = WRITE_KINDS.has(node.kind) && !node.returning;
    if (compiled.sql.length > CACHED_SQL_MAX) {
      if (!write) return { rows: (await all(this.db, compiled.sql, compiled.parameters)) as R[] };
      return writeResult(node.kind, await runOnce(this.db, compiled.sql, compiled.parameters));
    }
    const stmt = await this.statements.get(compiled.sql);
    try {
      if (write) return writeResult(node.kind, await stmtRun(stmt, compiled.parameters));
      return { rows: (await stmtAll(stmt, compiled.parameters)) as R[] };
    } catch (err) {
      // A statement that failed (SQLITE_BUSY above all) stays active until it is reset, holding
      // its transaction open: until the same SQL ran again, this connection's next writes would
      // never commit and would keep the write lock from every other connection.
      await new Promise<void>((resolve) => stmt.reset(() => resolve()));
      throw err;
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.db.prepare(compiled.sql, compiled.parameters as unknown[]);
    try {
      for (;;) {
        const chunk: R[] = [];
        while (chunk.length < chunkSize) {
          const row = await new Promise<R | undefined>((resolve, reject) =>
            stmt.get((err: Error | null, r: R | undefined) => (err ? reject(err) : resolve(r))),
          );
          if (row === undefined) break;
          chunk.push(row);
        }
        if (chunk.length > 0) yield { rows: chunk };
        if (chunk.length < chunkSize) return;
      }
    } finally {
      await new Promise<void>((resolve) => stmt.finalize(() => resolve()));
    }
  }
}

/** A small connection pool: hands out idle connections, queues callers when all are busy. */
class Sqlite3Driver implements Driver {
  readonly #options: Required<Sqlite3DialectOptions>;
  readonly #idle: Sqlite3Connection[] = [];
  readonly #all: Sqlite3Connection[] = [];
  readonly #waiting: Array<(c: Sqlite3Connection) => void> = [];
  readonly #writeLock = new WriteLock();

  constructor(options: Sqlite3DialectOptions) {
    const memory = options.filename === ':memory:';
    this.#options = {
      filename: options.filename,
      poolSize: memory ? 1 : (options.poolSize ?? 4),
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
      create: options.create ?? true,
    };
  }

  async init(): Promise<void> {
    for (let index = 0; index < this.#options.poolSize; index++) {
      const db = await open(this.#options.filename, this.#options.create);
      // WAL lets readers run beside one writer; the busy timeout makes writers queue, not fail.
      await all(db, `pragma busy_timeout = ${this.#options.busyTimeoutMs}`, []);
      if (index === 0) await all(db, 'pragma journal_mode = WAL', []);
      await all(db, 'pragma foreign_keys = ON', []);
      await all(db, 'pragma synchronous = NORMAL', []);
      // A checkpoint every 40 MB of log rather than SQLite's 4 MB: a sync run writes tens of MB of
      // events and snapshots, and rarer checkpoints copy each hot page (indexes' last pages) once
      // instead of once per few transactions (docs/performance.md).
      await all(db, 'pragma wal_autocheckpoint = 10000', []);
      const conn = new Sqlite3Connection(db, this.#writeLock);
      this.#all.push(conn);
      this.#idle.push(conn);
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = this.#idle.pop();
    if (conn) return conn;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as Sqlite3Connection;
    const release = await this.#writeLock.acquire();
    try {
      // IMMEDIATE takes SQLite's write lock up front, so another process's transaction never
      // deadlocks with this one on a lock upgrade.
      conn.releaseTransaction = release;
      await conn.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (err) {
      conn.releaseTransaction = undefined;
      release();
      throw err;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection as Sqlite3Connection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection as Sqlite3Connection, 'rollback');
  }

  async #end(conn: Sqlite3Connection, statement: 'commit' | 'rollback'): Promise<void> {
    try {
      await conn.executeQuery(CompiledQuery.raw(statement));
    } finally {
      const release = conn.releaseTransaction;
      conn.releaseTransaction = undefined;
      release?.();
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const next = this.#waiting.shift();
    if (next) next(connection as Sqlite3Connection);
    else this.#idle.push(connection as Sqlite3Connection);
  }

  async destroy(): Promise<void> {
    // One after the other: the last connection to close checkpoints the log into the file and
    // removes it (closed together, each saw the others open and the -wal file stayed behind).
    for (const connection of this.#all) {
      await connection.statements.clear();
      await new Promise<void>((resolve) => connection.db.close(() => resolve()));
    }
    this.#all.length = 0;
    this.#idle.length = 0;
  }
}

/** Kysely dialect over the callback-based `sqlite3` package, reusing Kysely's SQLite compiler. */
export class Sqlite3Dialect implements Dialect {
  constructor(private readonly options: Sqlite3DialectOptions) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new Sqlite3Driver(this.options);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}
