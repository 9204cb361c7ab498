import type { Channel, Message } from 'amqplib';
import { AppError } from '../../domain/app-error.ts';

/** Between deliveries of `--follow`: no message is waiting here, so held changes may be tried again. */
export const IDLE = 'idle';

/**
 * The messages of `queue` until it is empty (`channel.get`, one unacked at a time), or until
 * `stop` is aborted. Stopping takes no new message; the caller finishes the one in hand.
 */
export async function* drainQueue(channel: Channel, queue: string, stop: AbortSignal): AsyncGenerator<Message> {
  while (!stop.aborted) {
    const message = await channel.get(queue, { noAck: false });
    if (message === false) return;
    yield message;
  }
}

/**
 * The messages of `queue` as they come (a consumer; the channel's prefetch bounds how many are
 * unacked), with IDLE whenever none is waiting after some were yielded, until `stop` is aborted.
 * Messages delivered but not yet yielded when it stops go back to the queue. A consumer the broker
 * cancels (the queue deleted) or a channel that closes ends it with an error.
 */
export async function* followQueue(
  channel: Channel,
  queue: string,
  stop: AbortSignal,
  onConsuming: () => void,
): AsyncGenerator<Message | typeof IDLE> {
  const waiting: Message[] = [];
  let ended: 'stopped' | Error | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const onStop = () => {
    ended ??= 'stopped';
    poke();
  };
  const onClose = () => {
    ended ??= new Error(`the channel consuming "${queue}" closed`);
    poke();
  };
  channel.once('close', onClose);
  const { consumerTag } = await channel.consume(
    queue,
    (message) => {
      if (message) waiting.push(message);
      else ended ??= new AppError('queue_unavailable', `the broker cancelled the consumer of queue "${queue}" (was the queue deleted?)`);
      poke();
    },
    { noAck: false },
  );
  stop.addEventListener('abort', onStop, { once: true });
  if (stop.aborted) onStop();
  onConsuming();
  let yielded = false;
  try {
    for (;;) {
      if (ended === 'stopped') return;
      if (ended) throw ended;
      const message = waiting.shift();
      if (message) {
        yielded = true;
        yield message;
      } else if (yielded) {
        yielded = false;
        yield IDLE;
      } else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stop.removeEventListener('abort', onStop);
    channel.off('close', onClose);
    if (ended === 'stopped') {
      await channel.cancel(consumerTag);
      for (const message of waiting.splice(0)) channel.nack(message, false, true);
    }
  }
}
