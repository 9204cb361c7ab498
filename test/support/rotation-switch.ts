import type { Db } from '../../src/store/database.ts';
import type { DeliveryDeps } from '../../src/sync/delivery/delivery-deps.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { seedEvent, testClock, testDeps } from './sync-world.ts';

/**
 * Delivers one event of `partnerId` a second before a rotation's switch at `switchAt` and one at
 * the switch, each in its own `deliverDue` run: the receiver gets them in that order.
 */
export async function deliverAroundSwitch(db: Db, partnerId: string, switchAt: string, overrides: Partial<DeliveryDeps> = {}) {
  const tc = testClock(new Date(Date.parse(switchAt) - 1000).toISOString());
  await seedEvent(db, partnerId, { nextAttemptAt: tc.iso() });
  await deliverDue(db, testDeps(tc, overrides), 'run_before');
  tc.advance(1000);
  await seedEvent(db, partnerId, { nextAttemptAt: tc.iso() });
  await deliverDue(db, testDeps(tc, overrides), 'run_after');
}
