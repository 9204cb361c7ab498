import { randomBytes } from 'node:crypto';
import type { Config } from '../../config/config.ts';
import { AppError } from '../../domain/app-error.ts';
import { CatalogueCache } from '../../services/compliance/catalogue-cache.ts';
import { commandClock, println, withStore, type CliDeps } from '../context.ts';
import { storeOutageOr } from '../sync-outcome.ts';
import { signalExitCode, stopOnSignals } from '../stop-signals.ts';

/** The flags a diff worker refuses: it diffs the round another run opened, and does nothing else. */
const ALONE = ['dryRun', 'full', 'deliverOnly', 'diffProcesses'] as const;

/**
 * `svc sync --diff-worker` (docs/webhooks.md, "Several diff processes"): joins the round a
 * `svc sync --diff-processes n` run opens and diffs shares of it; prints what it did. A signal stops
 * it after the page in hand, releasing its share for another process.
 */
export async function runDiffWorker(
  deps: CliDeps,
  config: Config,
  opts: Partial<Record<(typeof ALONE)[number] | 'json', unknown>>,
): Promise<void> {
  const clash = ALONE.filter((flag) => opts[flag] !== undefined && opts[flag] !== false);
  if (clash.length > 0) {
    const flags = clash.map((flag) => `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ');
    throw new AppError('invalid_setting', `--diff-worker takes no ${flags}: it diffs shares of the round another run opened`);
  }
  const { joinDiffRound } = await import('../../sync/diff/join-round.ts');
  const clock = commandClock(deps, config);
  const runId = `dw_${randomBytes(6).toString('hex')}`;
  const stop = stopOnSignals(config.shutdownGraceMs, (signal) =>
    println(deps.stderr, `svc: ${signal}: the diff worker stops after the page in hand and releases its share`),
  );
  try {
    await withStore(config, async (store) => {
      const joined = await joinDiffRound(store.db, {
        clock,
        catalogue: new CatalogueCache(clock),
        windowDays: config.complianceWindowDays,
        runId,
        wallClock: deps.clock,
        signal: stop.drain,
      }).catch(async (err: unknown) => {
        throw await storeOutageOr(err, store);
      });
      const created = Object.fromEntries(joined.results.map((r) => [r.partnerId, Object.values(r.events).reduce((sum, n) => sum + n, 0)]));
      const total = Object.values(created).reduce((sum, n) => sum + n, 0);
      if (opts.json) {
        const summary = { run_id: runId, round_id: joined.roundId, shares: joined.shares, created, stopped: joined.stopped };
        println(deps.stdout, JSON.stringify(summary, null, 2));
      } else if (joined.roundId === null) println(deps.stdout, `diff worker ${runId}: no diff round opened; nothing to do`);
      else
        println(
          deps.stdout,
          `diff worker ${runId}: round ${joined.roundId}, shares [${joined.shares.join(', ')}] diffed, ${total} created`,
        );
    });
  } finally {
    stop.dispose();
  }
  const signal = stop.received();
  if (signal) process.exitCode = signalExitCode(signal);
}
