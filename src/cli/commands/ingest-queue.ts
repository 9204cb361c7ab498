import type { Config } from '../../config/config.ts';
import { AppError } from '../../domain/app-error.ts';
import { maskUrl } from '../../domain/masked-url.ts';
import type { ChangeResult } from '../../domain/ingest-change.ts';
import type { IngestDeps } from '../../services/ingest/apply-changes.ts';
import type { QueueSummary } from '../../services/ingest/amqp-source.ts';
import { println, withStore, type CliDeps } from '../context.ts';
import { stopOnSignals } from '../stop-signals.ts';

/** The options of `svc ingest --from amqp://…`. */
export interface QueueFlags {
  from: string;
  queue?: string;
  deadLetterQueue?: string;
  follow?: boolean;
}

/**
 * `svc ingest --from amqp://… --queue NAME`: drains the queue (or follows it) into the store. The
 * first SIGINT/SIGTERM takes no new message; the one in hand is finished and the run ends with its summary.
 */
export async function ingestFromQueue(
  deps: CliDeps,
  config: Config,
  flags: QueueFlags,
  ingestDeps: IngestDeps,
  onResults?: (results: readonly ChangeResult[]) => void,
): Promise<QueueSummary> {
  if (!flags.queue) throw new AppError('invalid_setting', '--from needs --queue NAME (the queue to consume)');
  const queue = flags.queue;
  // Loaded only here: no other command needs the AMQP client (docs/architecture.md).
  const [{ connect }, { ingestQueue }] = await Promise.all([import('amqplib'), import('../../services/ingest/amqp-source.ts')]);
  const where = maskUrl(flags.from);
  const stop = stopOnSignals(config.shutdownGraceMs, (signal, phase) => {
    if (phase === 'drain') println(deps.stderr, `svc: ${signal}: stopping: no new message is taken; the one in hand is finished`);
  });
  try {
    return await withStore(config, (store) =>
      ingestQueue(store.db, (url) => connect(url), ingestDeps, {
        url: flags.from,
        queue,
        deadLetterQueue: flags.deadLetterQueue ?? `${queue}.dead`,
        follow: flags.follow ?? false,
        stop: stop.drain,
        onResults,
        onConsuming: () => println(deps.stderr, `svc: following queue "${queue}" on ${where} (SIGINT or SIGTERM stops)`),
      }),
    );
  } finally {
    stop.dispose();
  }
}
