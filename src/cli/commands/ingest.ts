import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { AppError } from '../../domain/app-error.ts';
import type { ChangeResult } from '../../domain/ingest-change.ts';
import { folderFiles } from '../../services/ingest/file-source.ts';
import { DEFAULT_BATCH, ingestStream, type IngestSummary } from '../../services/ingest/ingest-stream.ts';
import { ndjsonFiles } from '../../services/ingest/ndjson.ts';
import { positiveInt } from '../arguments.ts';
import { commandConfig, println, withStore, type CliDeps } from '../context.ts';
import { ingestFromQueue, type QueueFlags } from './ingest-queue.ts';

const HOUR_MS = 3_600_000;

interface IngestOptions extends Partial<QueueFlags> {
  files?: string;
  batchSize: number;
  holdHours: number;
  dryRun?: boolean;
  json?: boolean;
}

function summaryLine(s: IngestSummary & { messages?: number; deadLettered?: number }): string {
  const { applied, stale, held, rejected } = s.counts;
  const queue = s.messages === undefined ? '' : `${s.messages} messages acked, ${s.deadLettered} changes dead-lettered; `;
  const earlier =
    s.earlierHeld.applied + s.earlierHeld.rejected > 0
      ? `; of changes held before: ${s.earlierHeld.applied} applied, ${s.earlierHeld.rejected} rejected`
      : '';
  return `${queue}${s.changes} changes: ${applied} applied, ${stale} stale, ${held} held, ${rejected} rejected${earlier}; ${s.waiting} waiting`;
}

function rejectionLine(r: ChangeResult): string {
  const issues = (r.issues ?? []).map((i) => `${i.loc.join('.') || '(change)'}: ${i.msg}`).join('; ');
  return `${r.origin}: rejected${r.entity ? ` ${r.entity} ${r.id}` : ''}: ${r.reason}${issues ? ` (${issues})` : ''}`;
}

/** A progress line on a terminal, at most once a second: changes/s and the counts so far. */
function progressReporter(stream: CliDeps['stderr'], now: () => number): ((results: readonly ChangeResult[]) => void) | undefined {
  if (!stream.isTTY) return undefined;
  const started = now();
  let last = 0;
  const counts = { applied: 0, stale: 0, held: 0, rejected: 0 };
  let total = 0;
  return (results) => {
    for (const r of results) counts[r.outcome] += 1;
    total += results.length;
    const t = now();
    if (t - last < 1000) return;
    last = t;
    const rate = Math.round(total / Math.max(0.001, (t - started) / 1000));
    stream.write(
      `\r${total} changes (${rate}/s): ${counts.applied} applied, ${counts.stale} stale, ${counts.held} held, ${counts.rejected} rejected`,
    );
  };
}

/** The summary on the wire (snake_case, as every JSON svc prints). */
function summaryJson(s: IngestSummary & { messages?: number; deadLettered?: number }, dryRun: boolean) {
  return {
    dry_run: dryRun,
    ...(s.messages === undefined ? {} : { messages: s.messages, dead_lettered: s.deadLettered }),
    changes: s.changes,
    ...s.counts,
    earlier_held: s.earlierHeld,
    waiting: s.waiting,
    rejections: s.rejected.map((r) => ({
      origin: r.origin,
      entity: r.entity ?? null,
      id: r.id ?? null,
      reason: r.reason,
      issues: r.issues ?? [],
    })),
  };
}

function report(deps: CliDeps, summary: Parameters<typeof summaryLine>[0], opts: IngestOptions, progress: boolean): void {
  if (progress) deps.stderr.write('\n');
  if (opts.json) println(deps.stdout, JSON.stringify(summaryJson(summary, opts.dryRun ?? false), null, 2));
  else {
    for (const r of summary.rejected) println(deps.stderr, rejectionLine(r));
    println(deps.stdout, `${opts.dryRun ? 'dry run, nothing written: ' : ''}${summaryLine(summary)}`);
  }
}

export function ingestCommand(deps: CliDeps): Command {
  return new Command('ingest')
    .description("apply the platform's changes (NDJSON, one change per line; docs/ingest.md) from files or standard input")
    .argument('[files...]', 'NDJSON files; - or none reads standard input')
    .option(
      '--files <dir>',
      'folder that `file` and `photo` paths are read from (default: the folder of the NDJSON file when one file is given; none otherwise)',
    )
    .option('--batch-size <n>', 'changes committed together', positiveInt, DEFAULT_BATCH)
    .option(
      '--hold-hours <n>',
      'how long a change referring to an entity not known yet waits for it before it is rejected',
      positiveInt,
      24,
    )
    .option('--dry-run', 'check every change and report, writing nothing')
    .option('--json', 'print the summary as JSON, with every rejected change')
    .option(
      '--from <url>',
      'read the changes from a RabbitMQ queue (amqp://user:password@host:5672/vhost) instead of files: one NDJSON body per message',
    )
    .option('--queue <name>', 'with --from: the queue to consume (it must exist)')
    .option(
      '--dead-letter-queue <name>',
      'with --from: where rejected changes go, one message each (default: <queue>.dead, declared if missing)',
    )
    .option('--follow', 'with --from: keep consuming until SIGINT/SIGTERM (exit 0) instead of stopping once the queue is empty')
    .action(async (paths: string[], opts: IngestOptions, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      const ingestDeps = { clock: deps.clock, holdMs: opts.holdHours * HOUR_MS, ...(opts.files ? { files: folderFiles(opts.files) } : {}) };
      if (opts.from !== undefined || opts.queue !== undefined || opts.follow || opts.deadLetterQueue !== undefined) {
        if (opts.from === undefined)
          throw new AppError('invalid_setting', '--queue, --dead-letter-queue and --follow go with --from amqp://…');
        if (paths.length > 0 || opts.dryRun) throw new AppError('invalid_setting', '--from reads a queue: give no files and no --dry-run');
        // Each message is committed alone, so its ack follows its commit: a batch size would be ignored, so it is refused.
        if (cmd.getOptionValueSource('batchSize') === 'cli')
          throw new AppError('invalid_setting', '--from commits each message in a transaction of its own: --batch-size is for files');
        const onResults = progressReporter(deps.stderr, () => deps.clock().getTime());
        const summary = await ingestFromQueue(deps, config, { ...opts, from: opts.from }, ingestDeps, onResults);
        report(deps, summary, opts, onResults !== undefined);
        // A follower stopped by a signal ends as asked: its rejected changes are in the dead-letter queue.
        if (summary.rejected.length > 0 && !opts.follow) process.exitCode = 65;
        return;
      }
      const inputs = paths.length > 0 ? paths : ['-'];
      for (const path of inputs) {
        if (path !== '-') await access(path).catch(() => Promise.reject(new AppError('invalid_input', `${path}: no such file`)));
      }
      const folder = opts.files ?? (inputs.length === 1 && inputs[0] !== '-' ? dirname(inputs[0]!) : undefined);
      const onResults = progressReporter(deps.stderr, () => deps.clock().getTime());
      const summary = await withStore(config, (store) =>
        ingestStream(
          store.db,
          ndjsonFiles(inputs, deps.stdin),
          {
            clock: deps.clock,
            holdMs: opts.holdHours * HOUR_MS,
            ...(folder ? { files: folderFiles(folder) } : {}),
          },
          { batchSize: opts.batchSize, dryRun: opts.dryRun ?? false, onResults },
        ),
      );
      report(deps, summary, opts, onResults !== undefined);
      if (summary.rejected.length > 0) process.exitCode = 65;
    });
}
