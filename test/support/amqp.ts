import { randomBytes } from 'node:crypto';
import { connect, type ChannelModel, type Channel } from 'amqplib';
import { it } from 'node:test';
import { describeEachStore } from './stores.ts';

/** The broker of the RabbitMQ tests: SVC_TEST_AMQP_URL, or the local one (`rabbitmq-server -detached` starts it). */
export const AMQP_URL = process.env.SVC_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

async function probeBroker(): Promise<boolean> {
  try {
    const connection = await connect(AMQP_URL, { timeout: 15_000 });
    await connection.close();
    return true;
  } catch {
    return false;
  }
}

/** Probed once, when this module loads, so suites register synchronously (as test/support/stores.ts does for Postgres). */
const amqpSkip: string | false = (await probeBroker()) ? false : brokerMissing();

function brokerMissing(): string {
  if (process.env.CI === 'true') throw new Error(`RabbitMQ is required under CI but does not answer at ${AMQP_URL}`);
  return `RabbitMQ does not answer at ${AMQP_URL}: skipped (start it with \`rabbitmq-server -detached\`, or set SVC_TEST_AMQP_URL)`;
}

/** describeEachStore for tests that need the broker too: one skipped test saying why when it does not answer. */
export function describeEachStoreWithBroker(name: string, body: Parameters<typeof describeEachStore>[1]): void {
  if (amqpSkip) it(name, { skip: amqpSkip }, () => {});
  else describeEachStore(name, body);
}

/** A connection of the test's own, and queues named at random that `close` deletes (with their dead-letter queues). */
export interface Broker {
  channel: Channel;
  /** Declares a fresh queue (durable, as a platform's would be) and returns its name. */
  queue(): Promise<string>;
  /** Publishes one message whose body is the changes as NDJSON, and waits until the broker has it. */
  publish(queue: string, changes: readonly object[], messageId?: string): Promise<void>;
  /** Messages ready in a queue (none unacked: the test's consumer has closed by then). */
  count(queue: string): Promise<number>;
  /** Takes every message of a queue, parsed as JSON. */
  takeAll(queue: string): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function openBroker(): Promise<Broker> {
  const connection: ChannelModel = await connect(AMQP_URL);
  const channel = await connection.createConfirmChannel();
  const made: string[] = [];
  return {
    channel,
    async queue() {
      const name = `svc-test-${randomBytes(6).toString('hex')}`;
      made.push(name, `${name}.dead`);
      await channel.assertQueue(name, { durable: true });
      return name;
    },
    async publish(queue, changes, messageId) {
      const body = changes.map((c) => JSON.stringify(c)).join('\n');
      channel.sendToQueue(queue, Buffer.from(`${body}\n`), { persistent: true, ...(messageId ? { messageId } : {}) });
      await channel.waitForConfirms();
    },
    count: async (queue) => (await channel.checkQueue(queue)).messageCount,
    async takeAll(queue) {
      const bodies: unknown[] = [];
      for (let m = await channel.get(queue, { noAck: true }); m; m = await channel.get(queue, { noAck: true }))
        bodies.push(JSON.parse(m.content.toString('utf8')));
      return bodies;
    },
    async close() {
      for (const name of made) await channel.deleteQueue(name);
      await connection.close();
    },
  };
}
