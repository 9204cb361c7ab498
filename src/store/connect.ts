import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { AppError } from '../domain/app-error.ts';
import { maskUrl } from '../domain/masked-url.ts';
import type { Database } from './database.ts';
import type { DialectName } from './dialect-of.ts';
import type { StoreOptions } from './store-options.ts';

/** An open store: the Kysely handle, which dialect it speaks, and how to close it. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** The URL with any password masked, for messages and logs. */
  readonly displayUrl: string;
  close(): Promise<void>;
}

export type { StoreOptions } from './store-options.ts';

/** Parses a store URL: `sqlite:PATH`, `sqlite::memory:`, or `postgres://…` / `postgresql://…`. */
export function parseStoreUrl(url: string): { dialect: DialectName; target: string } {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { dialect: 'postgres', target: url };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new AppError('invalid_setting', `store URL "${maskUrl(url)}" names no file (try sqlite:data/svc.db)`);
    return { dialect: 'sqlite', target: path };
  }
  throw new AppError('invalid_setting', `store URL "${maskUrl(url)}" is neither sqlite:PATH nor postgres://…`);
}

/** Opens the store a URL names. SQLite files and their folder are created when missing, unless `create: false`. */
export async function openStore(url: string, options: StoreOptions = {}): Promise<Store> {
  const { dialect, target } = parseStoreUrl(url);
  // Each dialect's driver is imported when a URL asks for it: a command loads one database driver, never both.
  const db =
    dialect === 'postgres'
      ? (await import('./dialects/postgres-kysely.ts')).postgresKysely(target, options)
      : (await import('./dialects/sqlite-kysely.ts')).sqliteKysely(target, options);
  const store: Store = { db, dialect, displayUrl: maskUrl(url), close: () => db.destroy() };
  try {
    await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
  } catch (err) {
    await store.close().catch(() => {});
    if (dialect === 'sqlite' && (err as { code?: string }).code === 'SQLITE_CANTOPEN' && !existsSync(target)) {
      throw new AppError(
        'store_unavailable',
        `no store exists at ${store.displayUrl} (${resolve(target)}): ` +
          'run `svc db migrate` to create it, or point SVC_DATABASE_URL or --db at the store you meant',
        { cause: err },
      );
    }
    throw new AppError('store_unavailable', `cannot open store ${store.displayUrl}: ${(err as Error).message}`, { cause: err });
  }
  return store;
}
