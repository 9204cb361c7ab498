import { Migrator, type Kysely } from 'kysely';
import type { Database } from '../../src/store/database.ts';
import { migrations } from '../../src/store/migrations/index.ts';

/** Migrates a store never migrated up to the migration before `name`: the schema a release before it left. */
export async function migrateToJustBefore(db: Kysely<Database>, name: string): Promise<void> {
  const names = Object.keys(migrations).sort();
  const before = names[names.indexOf(name) - 1];
  if (before === undefined) throw new Error(`no migration before ${name}`);
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(before);
  if (error) throw error instanceof Error ? error : new Error(`migrating to ${before} failed`, { cause: error });
}
