import { DELIVERY_P99_TARGET_SECONDS } from '../domain/delivery-level.ts';
import { dateTime, nullable, type JsonObject } from './types.ts';

/*
 * The answer of GET /api/v2/events/delivery-stats (src/services/events/delivery-stats.ts): the
 * figures of docs/operations.md, "Delivery service level", for the calling partner.
 */

const count = (description: string): JsonObject => ({ type: 'integer', minimum: 0, description });
const seconds = (description: string): JsonObject => ({ ...nullable({ type: 'number', minimum: 0 }), description });

export function deliveryStatsSchema(): JsonObject {
  const properties: Record<string, JsonObject> = {
    partner_id: { type: 'string' },
    window: {
      type: 'object',
      description: 'the interval the figures cover: `hours` back from now, to now (UTC, whole seconds)',
      properties: { since: dateTime, until: dateTime },
      required: ['since', 'until'],
    },
    p99_target_seconds: {
      type: 'integer',
      const: DELIVERY_P99_TARGET_SECONDS,
      description: 'the level svc aims for: the p99 of creation to delivery within this many seconds',
    },
    delivered: count('your events delivered within the window (by when they were delivered)'),
    p50_seconds: seconds(
      "creation to delivery of those events, nearest-rank median: from the event's creation to the start of the attempt that " +
        'delivered it; null when none was delivered',
    ),
    p99_seconds: seconds('the same, 99th percentile (nearest rank: always one of the measured times); null when none was delivered'),
    first_attempts: count(
      "your events whose first attempt was made within the window (a replayed dead letter's attempts are not first attempts)",
    ),
    first_attempts_delivered: count('those of them the first attempt delivered (your endpoint answered 2xx)'),
    first_attempt_success_rate: {
      ...nullable({ type: 'number', minimum: 0, maximum: 1 }),
      description: '`first_attempts_delivered` / `first_attempts`, rounded to four places; null without a first attempt',
    },
    waiting: count('your events not yet delivered or dead-lettered now (due or not), whatever the window'),
    oldest_waiting_since: { ...nullable(dateTime), description: 'when the oldest of them was created; null when none waits' },
    oldest_waiting_age_seconds: {
      ...nullable({ type: 'integer', minimum: 0 }),
      description: 'whole seconds from `oldest_waiting_since` to the end of the window; null when none waits',
    },
  };
  return { type: 'object', properties, required: Object.keys(properties) };
}
