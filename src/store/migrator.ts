import { Migrator, type Kysely, type MigrationResult } from 'kysely';
import { AppError } from '../domain/app-error.ts';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

export interface MigrationStatus {
  name: string;
  executedAt: Date | null;
}

function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Applies every pending migration; each result says applied or failed, per migration. */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationResult[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new AppError('internal_error', `migration ${failed} failed: ${(error as Error).message}`, { cause: error });
  }
  return results ?? [];
}

export async function migrationStatus(db: Kysely<Database>): Promise<MigrationStatus[]> {
  const list = await migrator(db).getMigrations();
  return list.map((m) => ({ name: m.name, executedAt: m.executedAt ?? null }));
}

/** Refuses to work on a store whose schema is older than this code, saying how to fix it; `name` is the store's masked URL. */
export async function assertMigrated(db: Kysely<Database>, name = 'the store'): Promise<void> {
  const pending = (await migrationStatus(db)).filter((m) => m.executedAt === null);
  if (pending.length > 0) {
    throw new AppError(
      'store_not_migrated',
      `${name} is not migrated (${pending.length} pending: ${pending.map((m) => m.name).join(', ')}); run \`svc db migrate\``,
    );
  }
}
