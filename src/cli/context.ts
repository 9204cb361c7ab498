import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { LogConfig } from 'kysely';
import { loadConfig, type Config } from '../config/config.ts';
import { isAppError } from '../domain/app-error.ts';
import { clockStartingAt, type Clock } from '../domain/clock.ts';
import { createAuditService } from '../services/audit.ts';
import type { Spans } from '../services/plumbing/spans.ts';
import { openStore, parseStoreUrl, type Store } from '../store/connect.ts';
import { assertMigrated } from '../store/migrator.ts';

/** Everything a command may touch, injected by main.ts (and by tests). */
export interface CliDeps {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** What `svc ingest -` reads. */
  stdin?: NodeJS.ReadableStream;
  clock: Clock;
  /** Called by long-running commands (serve) to learn when to stop. */
  onShutdown?: (stop: () => Promise<void>) => void;
  /** Set by main.ts when tracing is on (src/telemetry/start-tracing.ts); absent: no spans. */
  tracing?: CommandTracing;
}

/** What serve and sync need of tracing: spans, and the query log that gives SQLite's queries theirs. */
export interface CommandTracing {
  spans: Spans;
  sqliteQueryLog: LogConfig;
}

/** The Config for a command: environment first, then `--db` and the command's own overrides. */
export function commandConfig(deps: CliDeps, cmd: Command, overrides: Partial<Config> = {}): Config {
  const { db } = cmd.optsWithGlobals<{ db?: string }>();
  return loadConfig(deps.env, { ...overrides, ...(db ? { databaseUrl: db } : {}) });
}

/** The clock of sync, serve and compliance check: starting at SVC_NOW when it is set. */
export function commandClock(deps: CliDeps, config: Config): Clock {
  return config.now ? clockStartingAt(config.now, deps.clock) : deps.clock;
}

/**
 * Opens the configured store, checks it is migrated (unless told not to), runs `fn`, closes. A
 * missing SQLite file is an error naming the path: only `svc db migrate` passes `create`.
 */
export async function withStore<T>(
  config: Config,
  fn: (store: Store) => Promise<T>,
  options: { requireMigrated?: boolean; poolSize?: number; create?: boolean; log?: LogConfig } = {},
): Promise<T> {
  const store = await openStore(config.databaseUrl, { poolSize: options.poolSize, create: options.create ?? false, log: options.log });
  try {
    if (options.requireMigrated !== false) await assertMigrated(store.db, store.displayUrl);
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The query log a traced command opens its store with: SQLite's query spans; Postgres has instrumentation-pg's. */
export function tracedQueryLog(deps: CliDeps, config: Config): LogConfig | undefined {
  return deps.tracing && parseStoreUrl(config.databaseUrl).dialect === 'sqlite' ? deps.tracing.sqliteQueryLog : undefined;
}

export function println(stream: NodeJS.WritableStream, line = ''): void {
  stream.write(`${line}\n`);
}

const CLI_AUDIT_DEADLINE_MS = 30_000;

/** Who and what an audited command acted on; a command fills in what it learns as it runs (an issued key's id). */
export interface CliAuditFacts {
  partnerId: string | null;
  keyId: string | null;
}

/**
 * Runs a state-changing admin command and writes its one audit_log row, failures included:
 * request id `cli_` + 24 hex, method `CLI`, the command (`svc admin revoke-key`) as route and
 * path, status 0 on success or the error's HTTP status (404, 409, 422…; 500 when unexpected),
 * latency, no client address. Never arguments, keys or secrets. The row goes through the same
 * audit service as the HTTP calls' rows and is retried for up to 30 s while the store refuses it
 * (a long fixtures load holding the SQLite write lock); the action has happened by then, so a row
 * still unwritten is reported on stderr and does not change the command's outcome.
 *
 *   await withAudit(store, deps, 'svc admin revoke-key', { partnerId, keyId }, () => revokeKey(…));
 */
export async function withAudit<T>(
  store: Store,
  deps: CliDeps,
  route: string,
  known: Partial<CliAuditFacts>,
  fn: (facts: CliAuditFacts) => Promise<T>,
): Promise<T> {
  const facts: CliAuditFacts = { partnerId: known.partnerId ?? null, keyId: known.keyId ?? null };
  const requestId = `cli_${randomBytes(12).toString('hex')}`;
  const at = deps.clock().toISOString();
  const started = performance.now();
  const audit = createAuditService(store.db);
  let status = 0;
  try {
    return await fn(facts);
  } catch (err) {
    status = isAppError(err) ? err.status : 500;
    throw err;
  } finally {
    audit.record(
      {
        requestId,
        at,
        partnerId: facts.partnerId,
        keyId: facts.keyId,
        method: 'CLI',
        route,
        path: route,
        crewUniqueId: null,
        documentId: null,
        status,
        latencyMs: performance.now() - started,
        clientIp: null,
        traceId: deps.tracing?.spans.traceId() ?? null,
      },
      false,
    );
    if ((await audit.close(CLI_AUDIT_DEADLINE_MS)) > 0) {
      println(
        deps.stderr,
        `svc: warning: the audit row of ${route} (${requestId}) could not be written within ${CLI_AUDIT_DEADLINE_MS / 1000} s`,
      );
    }
  }
}
