import type { Command } from 'commander';
import { loadConfig, type Config } from '../config/config.ts';
import type { Clock } from '../domain/clock.ts';
import { openStore, type Store } from '../store/connect.ts';
import { assertMigrated } from '../store/migrator.ts';

/** Everything a command may touch, injected by main.ts (and by tests). */
export interface CliDeps {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  clock: Clock;
  /** Called by long-running commands (serve) to learn when to stop. */
  onShutdown?: (stop: () => Promise<void>) => void;
}

/** The Config for a command: environment first, then `--db` and the command's own overrides. */
export function commandConfig(deps: CliDeps, cmd: Command, overrides: Partial<Config> = {}): Config {
  const { db } = cmd.optsWithGlobals<{ db?: string }>();
  return loadConfig(deps.env, { ...overrides, ...(db ? { databaseUrl: db } : {}) });
}

/** Opens the configured store, checks it is migrated (unless told not to), runs `fn`, closes. */
export async function withStore<T>(
  config: Config,
  fn: (store: Store) => Promise<T>,
  options: { requireMigrated?: boolean; poolSize?: number } = {},
): Promise<T> {
  const store = await openStore(config.databaseUrl, { poolSize: options.poolSize });
  try {
    if (options.requireMigrated !== false) await assertMigrated(store.db);
    return await fn(store);
  } finally {
    await store.close();
  }
}

export function println(stream: NodeJS.WritableStream, line = ''): void {
  stream.write(`${line}\n`);
}
