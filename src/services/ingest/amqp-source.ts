import { Readable } from 'node:stream';
import type { ChannelModel, ConfirmChannel, Message } from 'amqplib';
import type { Kysely } from 'kysely';
import { AppError } from '../../domain/app-error.ts';
import type { ChangeResult } from '../../domain/ingest-change.ts';
import type { Database } from '../../store/database.ts';
import { analyzeStore } from '../../store/repositories/maintenance-repo.ts';
import { isStoreConnectionError } from '../../store/store-errors.ts';
import { drainQueue, followQueue, IDLE } from './amqp-deliveries.ts';
import { applyChanges, type Incoming, type IngestDeps } from './apply-changes.ts';
import { deadLetters, publishDeadLetters } from './dead-letter.ts';
import { ingestTally, retryHeld, statisticsRefresh, type Apply, type IngestSummary } from './ingest-stream.ts';
import { ndjsonChanges } from './ndjson.ts';
import { maskUrl } from '../../domain/masked-url.ts';

/** amqplib's `connect`, injected (src/cli/commands/ingest.ts passes it; the service never imports the client). */
export type AmqpConnect = (url: string) => Promise<ChannelModel>;

/** Messages a consumer holds unacked at most. */
export const DEFAULT_PREFETCH = 10;

export interface QueueOptions {
  url: string;
  queue: string;
  /** Where rejected changes go, one message each (docs/ingest.md, "RabbitMQ"); declared durable if missing. */
  deadLetterQueue: string;
  /** Keep consuming until `stop`; otherwise stop once the queue is empty. */
  follow: boolean;
  /** Aborted: take no new message, finish the one in hand, close. */
  stop: AbortSignal;
  prefetch?: number;
  /** Each message's results (and those of held changes tried again), once committed. */
  onResults?: (results: readonly ChangeResult[]) => void;
  /** Told once the consumer of `--follow` is registered. */
  onConsuming?: () => void;
}

export interface QueueSummary extends IngestSummary {
  /** Messages acked. */
  messages: number;
  /** Rejected changes published to the dead-letter queue. */
  deadLettered: number;
}

const brokerError = (what: string, err: unknown) =>
  new AppError('queue_unavailable', `${what}: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`, { cause: err });

/** The changes of one message body (NDJSON), named `amqp:<message id or delivery tag>:<line>`. */
async function messageChanges(message: Message): Promise<Incoming[]> {
  const name = `amqp:${message.properties.messageId ?? message.fields.deliveryTag}`;
  const changes: Incoming[] = [];
  for await (const change of ndjsonChanges(Readable.from([message.content]), name)) changes.push(change);
  return changes;
}

/**
 * Ingests the messages of a RabbitMQ queue (docs/ingest.md, "RabbitMQ"): each message's changes in
 * one transaction; its rejected changes to the dead-letter queue (confirmed by the broker); then
 * the ack. A store error returns the message to the queue (nothing of it was committed) and ends
 * the run with that error. Held changes are tried again whenever the queue is idle and at the end.
 */
export async function ingestQueue(
  db: Kysely<Database>,
  connect: AmqpConnect,
  deps: IngestDeps,
  options: QueueOptions,
): Promise<QueueSummary> {
  const where = maskUrl(options.url);
  const connection = await connect(options.url).catch((err: unknown) =>
    Promise.reject(brokerError(`the broker at ${where} does not answer`, err)),
  );
  // Set when the broker closes the channel or connection under us (without these listeners an 'error' event would end the process).
  let lost: unknown;
  let closing = false;
  connection.on('error', (err: Error) => (lost ??= err));
  try {
    const channel = await connection.createConfirmChannel();
    channel.on('error', (err: Error) => (lost ??= err));
    channel.on('close', () => {
      if (!closing) lost ??= new Error('the channel closed');
    });
    const declare = (what: string, step: Promise<unknown>) =>
      step.catch((err: unknown) => Promise.reject(brokerError(`${what} on ${where}`, err)));
    await declare(`queue "${options.queue}"`, channel.checkQueue(options.queue));
    await declare(`dead-letter queue "${options.deadLetterQueue}"`, channel.assertQueue(options.deadLetterQueue, { durable: true }));
    await channel.prefetch(options.prefetch ?? DEFAULT_PREFETCH);
    const summary = await consume(db, channel, deps, options);
    closing = true;
    await channel.close();
    return summary;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (lost) throw brokerError(`the connection to ${where} was lost; messages not acked go back to the queue`, lost);
    // Outside a message's transaction (held changes tried again, the closing ANALYZE).
    throw storeFailure(err);
  } finally {
    await connection.close().catch(() => {});
  }
}

async function consume(db: Kysely<Database>, channel: ConfirmChannel, deps: IngestDeps, options: QueueOptions): Promise<QueueSummary> {
  const { summary: tally, note } = ingestTally();
  const summary: QueueSummary = Object.assign(tally, { messages: 0, deadLettered: 0 });
  let appliedSinceRetry = false;
  const refresh = statisticsRefresh(db);
  const commit = async (batch: readonly Incoming[]) => {
    const results = await db.transaction().execute((trx) => applyChanges(trx, batch, deps));
    if (results.some((r) => r.outcome === 'applied')) appliedSinceRetry = true;
    return results;
  };
  const deadLetter = async (batch: readonly Incoming[], results: readonly ChangeResult[]) => {
    const letters = deadLetters(batch, results, options.queue, deps.clock());
    await publishDeadLetters(channel, options.deadLetterQueue, letters);
    summary.deadLettered += letters.length;
  };
  const apply: Apply = async (batch) => {
    const results = await commit(batch);
    await deadLetter(batch, results);
    return results;
  };
  const settleHeld = async () => {
    summary.waiting = await retryHeld(db, apply, (results) => {
      note(results, true);
      options.onResults?.(results);
    });
    appliedSinceRetry = false;
  };
  const messages = options.follow
    ? followQueue(channel, options.queue, options.stop, options.onConsuming ?? (() => {}))
    : drainQueue(channel, options.queue, options.stop);
  for await (const message of messages) {
    if (message === IDLE) {
      if (appliedSinceRetry) await settleHeld();
      continue;
    }
    const changes = await messageChanges(message);
    const results = await commit(changes).catch((err: unknown) => {
      // Nothing of the message was committed (its transaction rolled back): it goes back to the queue
      // (at once; or, when the channel is gone too, as the broker notices).
      try {
        channel.nack(message, false, true);
      } catch {
        // The channel is gone: the broker returns the message when it notices.
      }
      throw storeFailure(err, message);
    });
    // As `svc ingest` from files does: a long drain into an empty store must not keep plans made on empty tables.
    await refresh(results);
    // A failure from here on leaves the message unacked: the broker returns it when the channel closes, and its replay is stale.
    await deadLetter(changes, results);
    channel.ack(message);
    summary.messages += 1;
    note(results, false);
    options.onResults?.(results);
  }
  await settleHeld();
  if (summary.counts.applied > 0) await analyzeStore(db);
  return summary;
}

/** A store that went away, as the operator reads it: store_unavailable (exit 69), saying what became of the message in hand, if any. */
function storeFailure(err: unknown, message?: Message): unknown {
  if (err instanceof AppError || !isStoreConnectionError(err)) return err;
  const cause = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
  return new AppError(
    'store_unavailable',
    message
      ? `the store became unavailable while applying message ${message.properties.messageId ?? message.fields.deliveryTag} (${cause}); ` +
          'nothing of it was committed and it went back to the queue'
      : `the store became unavailable (${cause}); what the run committed stays, its messages acked`,
    { cause: err },
  );
}
