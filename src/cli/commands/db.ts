import { Command } from 'commander';
import { wireTime } from '../../domain/clock.ts';
import { installShippedCatalogue } from '../../services/fixtures/shipped-catalogue.ts';
import { migrateToLatest, migrationStatus } from '../../store/migrator.ts';
import { isAppError } from '../../domain/app-error.ts';
import { maskUrl } from '../../domain/masked-url.ts';
import { parseStoreUrl } from '../../store/connect.ts';
import { commandConfig, println, withStore, type CliDeps } from '../context.ts';

/** Postgres's "database does not exist": the store is created, not refused (README.md, "Using Postgres"). */
const PG_NO_DATABASE = '3D000';

/** Runs `fn`; when the Postgres database it opens does not exist, creates it (or says how) and runs it again. */
async function withCreatedStore(deps: CliDeps, url: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const cause = isAppError(err) ? (err.cause as { code?: string } | undefined) : undefined;
    if (cause?.code !== PG_NO_DATABASE || parseStoreUrl(url).dialect !== 'postgres') throw err;
    const shown = maskUrl(url);
    const name = await (await import('../../store/create-database.ts')).createPostgresDatabase(url, shown);
    println(deps.stderr, `created database "${name}" at ${shown}`);
    await fn();
  }
}

export function dbCommand(deps: CliDeps): Command {
  const db = new Command('db').description('create and inspect the store schema');

  db.command('migrate')
    .description(
      'create the store when missing, apply every pending migration and install the shipped requirement ' +
        'catalogue (data/requirements.json); safe to run again',
    )
    .option('--no-catalogue', 'leave the requirement catalogue as it is')
    .action(async (opts: { catalogue: boolean }, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      await withCreatedStore(deps, config.databaseUrl, async () =>
        withStore(
          config,
          async (store) => {
            const results = await migrateToLatest(store.db);
            for (const r of results) println(deps.stdout, `${r.status === 'Success' ? 'applied' : r.status}: ${r.migrationName}`);
            println(
              deps.stdout,
              results.length === 0
                ? `${store.displayUrl}: already up to date`
                : `${store.displayUrl}: ${results.length} migration(s) applied`,
            );
            if (!opts.catalogue) return;
            const installed = await installShippedCatalogue(store.db, deps.clock);
            println(
              deps.stdout,
              installed.changed
                ? `${store.displayUrl}: requirement catalogue installed (${installed.requirements} requirements from data/requirements.json)`
                : `${store.displayUrl}: requirement catalogue up to date (${installed.requirements} requirements)`,
            );
          },
          { requireMigrated: false, create: true },
        ),
      );
    });

  db.command('status')
    .description('list migrations and whether each is applied; exit 1 when any is pending')
    .action(async (_opts, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      await withStore(
        config,
        async (store) => {
          const list = await migrationStatus(store.db);
          for (const m of list) println(deps.stdout, `${m.executedAt ? `applied ${wireTime(m.executedAt)}` : 'pending'}  ${m.name}`);
          const pending = list.filter((m) => !m.executedAt).length;
          println(
            deps.stdout,
            pending === 0 ? `${store.displayUrl}: up to date` : `${store.displayUrl}: ${pending} pending; run \`svc db migrate\``,
          );
          if (pending > 0) process.exitCode = 1;
        },
        { requireMigrated: false },
      );
    });

  return db;
}
