import { after, before, beforeEach } from 'node:test';
import type { Store } from '../../src/store/connect.ts';
import { startReceiver, type Receiver, type Received, type Reply } from './receiver.ts';
import { resetDelivery, SECRET, seedPartners } from './sync-world.ts';

/** One describe block's webhook receiver and how it answers. */
export interface ReceiverWorld {
  /** Started in the block's `before` hook: read it inside tests only. */
  readonly rx: Receiver;
  /** How the receiver answers its n-th request since it started; 204 unless the test says otherwise. */
  reply: (n: number, r: Received) => Reply;
}

/** Seeds the partners once for the block and starts every test from an empty outbox (no endpoints, events, attempts or leases). */
function deliveryBlock(store: () => Store, partnerIds: readonly string[]): void {
  before(async () => seedPartners(store().db, ...partnerIds));
  beforeEach(async () => resetDelivery(store().db));
}

/**
 * Inside a `describeEachStore` body: partner ptn_a seeded once, one receiver verifying signatures
 * with SECRET, and every test started from an empty outbox, no requests received and the default
 * 204 reply; the receiver is closed after the block.
 *
 *   const world = receiverWorld(store);
 *   it('…', async () => { await seedEndpoint(store().db, 'ptn_a', world.rx.url); world.reply = () => ({ hang: true }); … });
 */
export function receiverWorld(store: () => Store): ReceiverWorld {
  let rx: Receiver | undefined;
  const world: ReceiverWorld = {
    get rx() {
      if (!rx) throw new Error('the receiver is started in before(): read world.rx inside a test');
      return rx;
    },
    reply: () => ({ status: 204 }),
  };
  deliveryBlock(store, ['ptn_a']);
  before(async () => {
    rx = await startReceiver(SECRET, (r, n) => world.reply(n, r));
  });
  beforeEach(() => {
    world.rx.received.length = 0;
    world.reply = () => ({ status: 204 });
  });
  after(async () => rx?.close());
  return world;
}

/**
 * Inside a `describeEachStore` body: the partners seeded once, every test started from an empty
 * outbox, and receivers (verifying with SECRET) started by the tests as they need them, each
 * answering as `respond` says (204 by default); all are closed after the block.
 *
 *   const receiver = receiverPool(store, 'ptn_a', 'ptn_b');
 *   it('…', async () => { const rx = await receiver(() => ({ status: 503 })); … });
 */
export function receiverPool(
  store: () => Store,
  ...partnerIds: string[]
): (respond?: (r: Received, n: number) => Reply) => Promise<Receiver> {
  const started: Receiver[] = [];
  deliveryBlock(store, partnerIds);
  after(async () => Promise.all(started.map((r) => r.close())));
  return async (respond) => {
    const rx = await startReceiver(SECRET, respond);
    started.push(rx);
    return rx;
  };
}
