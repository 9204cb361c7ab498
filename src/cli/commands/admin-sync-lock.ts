import { Command } from 'commander';
import { hostname } from 'node:os';
import { wireTime } from '../../domain/clock.ts';
import { releaseSyncLock } from '../../sync/sync-lease.ts';
import { processAlive } from '../process-alive.ts';
import { commandConfig, println, withAudit, withStore, type CliDeps } from '../context.ts';

/** `svc admin release-sync-lock`: added to the admin command. */
export function addSyncLockCommand(admin: Command, deps: CliDeps): void {
  admin
    .command('release-sync-lock')
    .description(
      'clear the sync lock of a run that is gone (killed with SIGKILL, its machine lost); refuses while ' +
        'its holder may still run (its process is alive on this machine, or it runs on another one) unless --force',
    )
    .option('--force', 'clear it even though the holder may still run')
    .action(async (opts: { force?: boolean }, cmd: Command) => {
      await withStore(commandConfig(deps, cmd), (store) =>
        withAudit(store, deps, 'svc admin release-sync-lock', {}, async () => {
          const release = await releaseSyncLock(
            store.db,
            { clock: deps.clock, wallClock: deps.clock, host: hostname(), isAlive: processAlive },
            opts.force ?? false,
          );
          if (!release.released) {
            println(deps.stdout, 'no sync lock is held; nothing to release');
            return;
          }
          const why =
            release.reason === 'expired'
              ? 'its lease had lapsed'
              : release.reason === 'holder_gone'
                ? 'its process is gone'
                : 'forced: if that run still goes on, a new one may overlap it';
          println(
            deps.stdout,
            `released the sync lock of ${release.lease.holder} (lease until ${wireTime(release.lease.expiresAt)}): ${why}; ` +
              `${release.claims} claimed event(s) released for the next run`,
          );
        }),
      );
    });
}
