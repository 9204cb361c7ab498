import { TEST_EVENT_TYPE, type EventType } from '../../domain/vocabulary.ts';
import type { DeliveryWindow } from '../../domain/delivery-level.ts';
import type { Db } from '../database.ts';

/*
 * What the delivery service level is computed from (src/domain/delivery-level.ts): the outbox's
 * creation and delivery times and the stored attempts. Test events (`svc.test`, sent by an
 * operator) are no part of it.
 */

/** One partner's events of these types (the partner's GET /api/v2/events/delivery-stats); none given: every partner's. */
export interface PartnerEvents {
  partnerId: string;
  /** Not empty. */
  eventTypes: readonly EventType[];
}

/** One event delivered in the window: its partner, and milliseconds from its creation to its delivery. */
export interface DeliveredEvent {
  partnerId: string;
  ms: number;
}

/** Events delivered in the window (by delivered_at). */
export async function deliveredInWindow(db: Db, window: DeliveryWindow, of?: PartnerEvents): Promise<DeliveredEvent[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select(['partner_id', 'created_at', 'delivered_at'])
    .where('delivered_at', '>=', window.since)
    .where('delivered_at', '<=', window.until)
    .where('event_type', '<>', TEST_EVENT_TYPE)
    .$if(of !== undefined, (qb) => qb.where('partner_id', '=', of!.partnerId).where('event_type', 'in', of!.eventTypes))
    .execute();
  return rows.map((r) => ({ partnerId: r.partner_id, ms: Date.parse(r.delivered_at!) - Date.parse(r.created_at) }));
}

/** A partner's events whose first attempt was made in the window, and how many of those it delivered. */
export interface FirstAttempts {
  partnerId: string;
  made: number;
  delivered: number;
}

/**
 * First attempts made in the window, per partner. An event's first attempt is its earliest stored
 * one: a replayed dead letter's attempts start again at number 1, and those are not first attempts.
 */
export async function firstAttemptsInWindow(db: Db, window: DeliveryWindow, of?: PartnerEvents): Promise<FirstAttempts[]> {
  const rows = await db
    .selectFrom('delivery_attempts as a')
    .innerJoin('outbox_events as o', 'o.event_id', 'a.event_id')
    .select((eb) => [
      'o.partner_id',
      eb.fn.countAll<number | string>().as('made'),
      eb.fn.sum<number | string>(eb.case().when('a.outcome', '=', 'delivered').then(1).else(0).end()).as('delivered'),
    ])
    .where('a.attempt_no', '=', 1)
    .where('a.attempted_at', '>=', window.since)
    .where('a.attempted_at', '<=', window.until)
    .where('o.event_type', '<>', TEST_EVENT_TYPE)
    .$if(of !== undefined, (qb) => qb.where('o.partner_id', '=', of!.partnerId).where('o.event_type', 'in', of!.eventTypes))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('delivery_attempts as b')
            .select('b.attempt_id')
            .whereRef('b.event_id', '=', 'a.event_id')
            .whereRef('b.attempt_id', '<', 'a.attempt_id'),
        ),
      ),
    )
    .groupBy('o.partner_id')
    .execute();
  return rows.map((r) => ({ partnerId: r.partner_id, made: Number(r.made), delivered: Number(r.delivered) }));
}

/** A partner's events waiting now: pending, due or not, its endpoint active or not. */
export interface WaitingEvents {
  partnerId: string;
  waiting: number;
  oldestCreatedAt: string;
}

export async function waitingEvents(db: Db, of?: PartnerEvents): Promise<WaitingEvents[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select((eb) => ['partner_id', eb.fn.countAll<number | string>().as('waiting'), eb.fn.min<string>('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .$if(of !== undefined, (qb) => qb.where('partner_id', '=', of!.partnerId).where('event_type', 'in', of!.eventTypes))
    .groupBy('partner_id')
    .execute();
  return rows.map((r) => ({ partnerId: r.partner_id, waiting: Number(r.waiting), oldestCreatedAt: r.oldest }));
}
