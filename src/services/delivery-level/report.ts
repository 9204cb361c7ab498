import {
  deliveryLevel,
  mergeFacts,
  NO_FACTS,
  type DeliveryFacts,
  type DeliveryLevel,
  type DeliveryWindow,
} from '../../domain/delivery-level.ts';
import type { Db } from '../../store/database.ts';
import { deliveredInWindow, firstAttemptsInWindow, waitingEvents } from '../../store/repositories/delivery-level-repo.ts';
import { listEndpoints } from '../../store/repositories/webhook-endpoints-repo.ts';

/** The service level over a window, per partner and for all of them together. */
export interface DeliveryReport {
  window: DeliveryWindow;
  /** Every partner with a webhook endpoint or with figures in the window, by partner id. */
  partners: { partnerId: string; level: DeliveryLevel }[];
  all: DeliveryLevel;
}

/** The store's facts of the window, by partner; of one partner when `partnerId` is given. */
async function factsByPartner(db: Db, window: DeliveryWindow, partnerId?: string): Promise<Map<string, DeliveryFacts>> {
  const [delivered, first, waiting] = await Promise.all([
    deliveredInWindow(db, window, partnerId),
    firstAttemptsInWindow(db, window, partnerId),
    waitingEvents(db, partnerId),
  ]);
  const byPartner = new Map<string, { deliveredMs: number[] } & Omit<DeliveryFacts, 'deliveredMs'>>();
  const of = (id: string) => {
    let facts = byPartner.get(id);
    if (!facts) byPartner.set(id, (facts = { ...NO_FACTS, deliveredMs: [] }));
    return facts;
  };
  for (const d of delivered) of(d.partnerId).deliveredMs.push(d.ms);
  for (const f of first) Object.assign(of(f.partnerId), { firstAttempts: f.made, firstAttemptsDelivered: f.delivered });
  for (const w of waiting) Object.assign(of(w.partnerId), { waiting: w.waiting, oldestWaitingSince: w.oldestCreatedAt });
  return byPartner;
}

/** `svc admin delivery-report`: every partner's level over the window, and all partners' together. */
export async function deliveryReport(db: Db, window: DeliveryWindow): Promise<DeliveryReport> {
  const [byPartner, endpoints] = await Promise.all([factsByPartner(db, window), listEndpoints(db)]);
  const ids = [...new Set([...byPartner.keys(), ...endpoints.map((e) => e.partnerId)])].sort();
  return {
    window,
    partners: ids.map((partnerId) => ({ partnerId, level: deliveryLevel(byPartner.get(partnerId) ?? NO_FACTS, window.until) })),
    all: deliveryLevel(mergeFacts([...byPartner.values()]), window.until),
  };
}

/** One partner's level over the window. */
export async function partnerDeliveryLevel(db: Db, window: DeliveryWindow, partnerId: string): Promise<DeliveryLevel> {
  const facts = (await factsByPartner(db, window, partnerId)).get(partnerId) ?? NO_FACTS;
  return deliveryLevel(facts, window.until);
}

/** All partners' level over the window, as the metrics show it (no figure per partner). */
export async function overallDeliveryLevel(db: Db, window: DeliveryWindow): Promise<DeliveryLevel> {
  return deliveryLevel(mergeFacts([...(await factsByPartner(db, window)).values()]), window.until);
}
