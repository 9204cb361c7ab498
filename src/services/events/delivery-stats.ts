import { wireTime } from '../../domain/clock.ts';
import {
  DELIVERY_P99_TARGET_SECONDS,
  deliveryLevel,
  NO_FACTS,
  toDeliveryLevelWire,
  type DeliveryLevelWire,
} from '../../domain/delivery-level.ts';
import { eventTypesVisibleWith } from '../../domain/event-access.ts';
import { EVENT_TYPES } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { partnerDeliveryLevel } from '../delivery-level/report.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';

/** The partner's delivery service level, as GET /api/v2/events/delivery-stats answers it. */
export interface DeliveryStatsWire extends DeliveryLevelWire {
  partner_id: string;
  window: { since: string; until: string };
  p99_target_seconds: number;
}

/**
 * The calling partner's delivery service level over the `hours` before `now`: the figures of
 * `svc admin delivery-report` for this partner (src/services/delivery-level/report.ts), counting
 * the events the feed would list by type (src/services/events/feed.ts): those whose type's scope
 * the key holds, none for a test key (`svc sync` creates events for live data only).
 */
export async function partnerDeliveryStats(db: Db, ctx: PartnerContext, now: Date, hours: number): Promise<DeliveryStatsWire> {
  const window = { since: new Date(now.getTime() - hours * 3_600_000).toISOString(), until: now.toISOString() };
  const partnerId = ctx.partner.partnerId;
  const eventTypes = ctx.mode === 'test' ? [] : eventTypesVisibleWith(ctx.scopes, EVENT_TYPES);
  const level =
    eventTypes.length === 0 ? deliveryLevel(NO_FACTS, window.until) : await partnerDeliveryLevel(db, window, { partnerId, eventTypes });
  return {
    partner_id: partnerId,
    window: { since: wireTime(window.since), until: wireTime(window.until) },
    p99_target_seconds: DELIVERY_P99_TARGET_SECONDS,
    ...toDeliveryLevelWire(level),
  };
}
