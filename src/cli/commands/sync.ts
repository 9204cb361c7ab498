import { Command } from 'commander';
import { hostname } from 'node:os';
import { parseStoreUrl } from '../../store/connect.ts';
import type { DeliveryProgress, PartnerTally } from '../../sync/delivery/delivery-deps.ts';
import type { SyncSummary } from '../../sync/run-sync.ts';
import { commandClock, commandConfig, println, tracedQueryLog, withStore, type CliDeps } from '../context.ts';
import { positiveInt } from '../arguments.ts';
import { processAlive } from '../process-alive.ts';
import { runDiffWorker } from './sync-diff-worker.ts';
import { phasesLine, syncSummaryJson } from '../sync-json.ts';
import { assertClockMayWrite, storeOutageOr, syncExitCode, syncProblemLine } from '../sync-outcome.ts';
import { signalExitCode, stopOnSignals, type StopRequest } from '../stop-signals.ts';

/** `12 of 40 (30%)`: how far a stage is. */
const howFar = (done: number, total: number) => `${done} of ${total} (${total > 0 ? Math.floor((100 * done) / total) : 100}%)`;

/** A one-line progress display on a terminal, redrawn at most every 100 ms. */
function progressLine(stream: CliDeps['stderr']): ((p: DeliveryProgress) => void) | undefined {
  if (!stream.isTTY) return undefined;
  let last = 0;
  return (progress) => {
    const now = Date.now();
    if (now - last < 100 && progress.done < progress.total) return;
    last = now;
    const totals = progress.totals;
    stream.write(
      `\rdelivering ${howFar(progress.done, progress.total)} events: ${totals.delivered} delivered, ${totals.retrying} retrying, ` +
        `${totals.deadLettered} dead-lettered\x1b[K`,
    );
    if (progress.done === progress.total) stream.write('\n');
  };
}

/**
 * Crew diffed so far out of those the run knows it will diff, on a terminal. The changes since the
 * last run are read in chunks, so the total can grow while a large incremental run goes on.
 */
function diffProgress(stream: CliDeps['stderr']): ((crewDone: number, crewKnown: number) => void) | undefined {
  if (!stream.isTTY) return undefined;
  return (done, known) => stream.write(`\rdiffing fleets: ${howFar(done, Math.max(done, known))} crew\x1b[K`);
}

function printDryRun(deps: CliDeps, summary: SyncSummary): void {
  const out = (line: string) => println(deps.stdout, line);
  out(`dry run ${summary.runId}: nothing written, nothing sent`);
  out(`would create ${summary.planned.length} event(s)`);
  for (const e of summary.planned) out(`  ${e.partnerId}\t${e.eventType}\t${e.crewUniqueId ?? '-'}${e.note ? `\t${e.note}` : ''}`);
  out(`would attempt ${summary.due.length} outbox event(s)`);
  for (const e of summary.due) out(`  ${e.eventId}\t${e.partnerId}\t${e.eventType}\tattempt ${e.attempts + 1}\t${e.url}`);
}

function printSummary(deps: CliDeps, summary: SyncSummary): void {
  const out = (line: string) => println(deps.stdout, line);
  const delivery = summary.delivery!;
  const created = [...summary.created.values()].reduce((a, b) => a + b, 0);
  const totals = delivery.totals;
  const what = summary.deliverOnly ? 'deliver only, no diff' : `${created} created`;
  out(
    `sync ${summary.runId}: ${what}, ${totals.delivered} delivered, ${totals.retrying} retrying, ${totals.deadLettered} dead-lettered` +
      `${totals.skipped ? `, ${totals.skipped} skipped` : ''}${totals.interrupted ? `, ${totals.interrupted} interrupted` : ''}` +
      `${totals.failed ? `, ${totals.failed} failed` : ''}${delivery.notStarted ? `, ${delivery.notStarted} left for the next run` : ''}` +
      `${totals.suppressed ? `, ${totals.suppressed} suppressed (access refused now)` : ''}` +
      `${totals.breakerOpen ? `, ${totals.breakerOpen} left by an open breaker` : ''}` +
      `${totals.budgetSpent ? `, ${totals.budgetSpent} left when the time budget ran out` : ''}` +
      `${summary.pruned ? `, ${summary.pruned} past retention deleted` : ''}` +
      `${summary.auditPruned ? `, ${summary.auditPruned} audit rows past retention deleted` : ''}` +
      `${summary.filesPruned ? `, ${summary.filesPruned} unused files deleted` : ''}`,
  );
  out(phasesLine(summary));
  for (const partnerId of summary.baselines) {
    out(`baseline recorded for ${partnerId}: its first run sends nothing; the next runs send what changes from here`);
  }
  const partners = [...new Set([...summary.created.keys(), ...delivery.perPartner.keys(), ...summary.held.keys()])].sort();
  if (partners.length === 0) return;
  out(['partner', 'created', 'delivered', 'retrying', 'dead_lettered', 'held'].join('\t'));
  for (const partnerId of partners) {
    const tally: Partial<PartnerTally> = delivery.perPartner.get(partnerId) ?? {};
    out(
      [
        partnerId,
        summary.created.get(partnerId) ?? 0,
        tally.delivered ?? 0,
        tally.retrying ?? 0,
        tally.deadLettered ?? 0,
        summary.held.get(partnerId) ?? 0,
      ].join('\t'),
    );
  }
  for (const error of delivery.errors) {
    println(
      deps.stderr,
      error.eventId
        ? `svc: event ${error.eventId} not delivered: ${error.message}`
        : `svc: events of ${error.partnerId} not claimed: ${error.message}`,
    );
  }
}

/** Says on stderr what a signal does to the run. */
function announceStop(deps: CliDeps, graceMs: number): Parameters<typeof stopOnSignals>[1] {
  return (signal, phase) =>
    println(
      deps.stderr,
      phase === 'drain'
        ? `svc: ${signal}: stopping: no new events are claimed; deliveries in flight get ${graceMs} ms (SVC_SHUTDOWN_GRACE_MS) ` +
            'to finish, then are abandoned and their claims released; a second signal abandons them now'
        : `svc: ${signal}: abandoning the deliveries still in flight; their claims are released`,
    );
}

interface SyncFlags {
  dryRun?: boolean;
  full?: boolean;
  json?: boolean;
  deliverOnly?: boolean;
  diffProcesses?: number;
  diffWorker?: boolean;
}

export function syncCommand(deps: CliDeps): Command {
  return new Command('sync')
    .description(
      'one sync run (cron, every 15 minutes): new events to the outbox, then deliver what is due; ' +
        'exits 76 when it dead-lettered events or recorded delivery errors, 79 while an endpoint fails or is disabled, 75 at once when another run holds the lock; ' +
        'with SVC_NOW set it writes and delivers only with SVC_NOW_ALLOW_WRITES=1; on SIGINT/SIGTERM it stops claiming, lets deliveries in flight ' +
        'finish (SVC_SHUTDOWN_GRACE_MS), releases the lock and exits 130/143',
    )
    .option('--dry-run', 'print what would be created and sent; write and send nothing')
    .option('--full', 're-diff every crew member of every fleet, not only what changed (reconcile)')
    .option('--json', 'print the summary as one JSON object')
    .option(
      '--deliver-only',
      'deliver what is due and nothing else: no diff, no sync lock, so several may run at once ' +
        '(on several hosts, sharing one Postgres outbox) beside the cron job',
    )
    .option(
      '--diff-processes <n>',
      'split the diff into n shares of partners, claimed in the store by this run and by `svc sync --diff-worker` ' +
        'processes started beside it (on this host or others); 1, the default, diffs every partner here',
      positiveInt,
    )
    .option(
      '--diff-worker',
      'diff shares of the round a `svc sync --diff-processes n` run opens (waiting up to 60 s for one), then exit: ' +
        'no lock, no delivery, no cursor; exits 0 when no round opened',
    )
    .action(async (opts: SyncFlags, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      assertClockMayWrite(config, opts.dryRun ?? false);
      if (opts.diffWorker) return runDiffWorker(deps, config, opts);
      // Loaded when sync runs: the webhook client and the diff are needed by no other command (docs/architecture.md).
      const [{ deliveryDepsFromConfig }, { fleetDiffStep }, { runSync }] = await Promise.all([
        import('../../sync/delivery/delivery-deps.ts'),
        import('../../sync/fleet-diff-step.ts'),
        import('../../sync/run-sync.ts'),
      ]);
      const deliveryDeps = deliveryDepsFromConfig(
        config,
        { clock: commandClock(deps, config), wallClock: deps.clock },
        { onProgress: progressLine(deps.stderr), spans: deps.tracing?.spans },
      );
      // SQLite keeps its small default pool: its writers busy-wait on libuv's few shared threads.
      const poolSize = parseStoreUrl(config.databaseUrl).dialect === 'postgres' ? config.webhookConcurrency + 2 : undefined;
      const stop: StopRequest = stopOnSignals(config.shutdownGraceMs, announceStop(deps, config.shutdownGraceMs));
      let exitCode = 0;
      let ran: SyncSummary | undefined;
      try {
        await withStore(
          config,
          async (store) => {
            const summary = await runSync(
              store.db,
              { ...deliveryDeps, drain: stop.drain, cancel: stop.cancel },
              {
                dryRun: opts.dryRun,
                deliverOnly: opts.deliverOnly,
                diff: fleetDiffStep(config, diffProgress(deps.stderr), { full: opts.full, shares: opts.diffProcesses }),
                retentionDays: config.eventRetentionDays,
                auditRetentionDays: config.auditRetentionDays,
                takeOver: { host: hostname(), isAlive: processAlive, wallClock: deps.clock },
              },
            ).catch(async (err: unknown) => {
              throw await storeOutageOr(err, store);
            });
            ran = summary;
            const signal = stop.received();
            exitCode = signal ? signalExitCode(signal) : syncExitCode(summary);
            if (opts.json) println(deps.stdout, JSON.stringify(syncSummaryJson(summary, exitCode), null, 2));
            else if (summary.dryRun) printDryRun(deps, summary);
            else printSummary(deps, summary);
          },
          { poolSize, log: tracedQueryLog(deps, config) },
        );
      } finally {
        stop.dispose();
      }
      const signal = stop.received();
      if (signal) {
        println(deps.stderr, `svc: stopped by ${signal}; the sync lock is released, the next run carries on`);
        process.exitCode = signalExitCode(signal);
      } else if (exitCode !== 0) {
        println(deps.stderr, syncProblemLine(ran!, exitCode));
        process.exitCode = exitCode;
      }
    });
}
