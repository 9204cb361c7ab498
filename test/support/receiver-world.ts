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

/**
 * Inside a `describeEachStore` body: seeds partner ptn_a once, starts one receiver verifying
 * signatures with SECRET, and starts every test from an empty outbox (no endpoints, events,
 * attempts or leases), no requests received and the default 204 reply; closes the receiver after.
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
  before(async () => {
    await seedPartners(store().db, 'ptn_a');
    rx = await startReceiver(SECRET, (r, n) => world.reply(n, r));
  });
  beforeEach(async () => {
    await resetDelivery(store().db);
    world.rx.received.length = 0;
    world.reply = () => ({ status: 204 });
  });
  after(async () => rx?.close());
  return world;
}
