import {
  deliveryLevel,
  mergeFacts,
  NO_FACTS,
  type DeliveryFacts,
  type DeliveryLevel,
  type DeliveryWindow,
} from '../../domain/delivery-level.ts';
import type { Db } from '../../store/database.ts';
import {
  deliveredInWindow,
  firstAttemptsInWindow,
  waitingEvents,
  type PartnerEvents,
} from '../../store/repositories/delivery-level-repo.ts';
import { listEndpoints } from '../../store/repositories/webhook-endpoints-repo.ts';

/** The service level over a window, per partner and for all of them together. */
export interface DeliveryReport {
  window: DeliveryWindow;
  /** Every partner with a webhook endpoint or with figures in the window, by partner id. */
  partners: { partnerId: string; level: DeliveryLevel }[];
  all: DeliveryLevel;
}

/** What the metrics show of the level: deliveries and first attempts (what waits, the outbox's own gauges show). */
export type DeliveryFigures = Pick<DeliveryLevel, 'delivered' | 'p50Seconds' | 'p99Seconds' | 'firstAttempts' | 'firstAttemptsDelivered'>;

type MutableFacts = { deliveredMs: number[] } & Omit<DeliveryFacts, 'deliveredMs'>;

/**
 * The store's facts of the window, by partner (of one partner's events of some types when `only` is
 * given); what waits only when `waiting` (the metrics read it elsewhere).
 */
async function factsByPartner(db: Db, window: DeliveryWindow, waiting: boolean, only?: PartnerEvents): Promise<Map<string, DeliveryFacts>> {
  const [delivered, first, waits] = await Promise.all([
    deliveredInWindow(db, window, only),
    firstAttemptsInWindow(db, window, only),
    waiting ? waitingEvents(db, only) : [],
  ]);
  const byPartner = new Map<string, MutableFacts>();
  const of = (id: string) => {
    let facts = byPartner.get(id);
    if (!facts) byPartner.set(id, (facts = { ...NO_FACTS, deliveredMs: [] }));
    return facts;
  };
  for (const d of delivered) of(d.partnerId).deliveredMs.push(d.ms);
  for (const f of first) Object.assign(of(f.partnerId), { firstAttempts: f.made, firstAttemptsDelivered: f.delivered });
  for (const w of waits) Object.assign(of(w.partnerId), { waiting: w.waiting, oldestWaitingSince: w.oldestCreatedAt });
  return byPartner;
}

/** `svc admin delivery-report`: every partner's level over the window, and all partners' together. */
export async function deliveryReport(db: Db, window: DeliveryWindow): Promise<DeliveryReport> {
  const [byPartner, endpoints] = await Promise.all([factsByPartner(db, window, true), listEndpoints(db)]);
  const ids = [...new Set([...byPartner.keys(), ...endpoints.map((e) => e.partnerId)])].sort();
  return {
    window,
    partners: ids.map((partnerId) => ({ partnerId, level: deliveryLevel(byPartner.get(partnerId) ?? NO_FACTS, window.until) })),
    all: deliveryLevel(mergeFacts([...byPartner.values()]), window.until),
  };
}

/**
 * One partner's level over the window, counting its events of `of.eventTypes` only: the partner's
 * GET /api/v2/events/delivery-stats (src/services/events/delivery-stats.ts).
 */
export async function partnerDeliveryLevel(db: Db, window: DeliveryWindow, of: PartnerEvents): Promise<DeliveryLevel> {
  const facts = (await factsByPartner(db, window, true, of)).get(of.partnerId) ?? NO_FACTS;
  return deliveryLevel(facts, window.until);
}

/** All partners' deliveries and first attempts over the window, as the metrics show them (no figure per partner). */
export async function overallDeliveryFigures(db: Db, window: DeliveryWindow): Promise<DeliveryFigures> {
  const level = deliveryLevel(mergeFacts([...(await factsByPartner(db, window, false)).values()]), window.until);
  const { delivered, p50Seconds, p99Seconds, firstAttempts, firstAttemptsDelivered } = level;
  return { delivered, p50Seconds, p99Seconds, firstAttempts, firstAttemptsDelivered };
}
