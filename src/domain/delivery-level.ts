import { wireTime } from './clock.ts';

/*
 * The delivery service level (docs/operations.md, "Delivery service level"): how long events take
 * from creation to delivery, how many first attempts deliver, how long the oldest event has waited.
 * Computed the same way for `svc admin delivery-report`, the metrics and the partner's
 * GET /api/v2/events/delivery-stats.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The level svc aims for: p99 of creation to delivery within one 15-minute sync interval plus the 5-minute retry wait in flight. */
export const DELIVERY_P99_TARGET_SECONDS = 20 * 60;
/** The window the metrics cover, ending at the scrape. */
export const METRICS_WINDOW_MS = HOUR_MS;
/** The window of `svc admin delivery-report` when none is given. */
export const DEFAULT_REPORT_WINDOW_MS = 24 * HOUR_MS;
/** The partner route's window, in whole hours back from now: at most the event retention's default (30 days). */
export const STATS_WINDOW_HOURS = { min: 1, max: 720, default: DEFAULT_REPORT_WINDOW_MS / HOUR_MS } as const;

/** The interval figures are taken over: deliveries and first attempts at or after `since`, before or at `until`. */
export interface DeliveryWindow {
  since: string;
  until: string;
}

/** What the store holds of one partner in a window (src/store/repositories/delivery-level-repo.ts). */
export interface DeliveryFacts {
  /** Milliseconds from creation to delivery of each event delivered in the window. */
  deliveredMs: readonly number[];
  /** Events whose first attempt was made in the window, and those of them it delivered. */
  firstAttempts: number;
  firstAttemptsDelivered: number;
  /** Events waiting now (pending, due or not), and when the oldest of them was created. */
  waiting: number;
  oldestWaitingSince: string | null;
}

/** The service level of one partner (or all) over a window. */
export interface DeliveryLevel {
  delivered: number;
  /** Nearest-rank percentiles of creation to delivery, in seconds; null when nothing was delivered. */
  p50Seconds: number | null;
  p99Seconds: number | null;
  firstAttempts: number;
  firstAttemptsDelivered: number;
  /** firstAttemptsDelivered / firstAttempts; null without a first attempt. */
  firstAttemptSuccessRate: number | null;
  waiting: number;
  oldestWaitingSince: string | null;
  /** Seconds from oldestWaitingSince to the window's end; null when nothing waits. */
  oldestWaitingAgeSeconds: number | null;
}

export const NO_FACTS: DeliveryFacts = {
  deliveredMs: [],
  firstAttempts: 0,
  firstAttemptsDelivered: 0,
  waiting: 0,
  oldestWaitingSince: null,
};

/**
 * The nearest-rank percentile: the smallest value at least `p` of the values are at or below
 * (p in (0, 1]); null for no values. Always one of the values, never an interpolation.
 */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/** The level of `facts` at the window's end. */
export function deliveryLevel(facts: DeliveryFacts, until: string): DeliveryLevel {
  const sorted = [...facts.deliveredMs].sort((a, b) => a - b);
  const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);
  return {
    delivered: sorted.length,
    p50Seconds: seconds(nearestRank(sorted, 0.5)),
    p99Seconds: seconds(nearestRank(sorted, 0.99)),
    firstAttempts: facts.firstAttempts,
    firstAttemptsDelivered: facts.firstAttemptsDelivered,
    firstAttemptSuccessRate: facts.firstAttempts === 0 ? null : facts.firstAttemptsDelivered / facts.firstAttempts,
    waiting: facts.waiting,
    oldestWaitingSince: facts.oldestWaitingSince,
    oldestWaitingAgeSeconds:
      facts.oldestWaitingSince === null ? null : Math.max(0, (Date.parse(until) - Date.parse(facts.oldestWaitingSince)) / 1000),
  };
}

/** The facts of several partners as one: every delivery, every first attempt, every waiting event. */
export function mergeFacts(all: readonly DeliveryFacts[]): DeliveryFacts {
  const oldest = all.flatMap((f) => (f.oldestWaitingSince === null ? [] : [f.oldestWaitingSince])).sort()[0] ?? null;
  return {
    deliveredMs: all.flatMap((f) => f.deliveredMs),
    firstAttempts: all.reduce((n, f) => n + f.firstAttempts, 0),
    firstAttemptsDelivered: all.reduce((n, f) => n + f.firstAttemptsDelivered, 0),
    waiting: all.reduce((n, f) => n + f.waiting, 0),
    oldestWaitingSince: oldest,
  };
}

/** A window's length back from now, `24h`, `90m` or `7d`, in milliseconds; null when `text` is not one. */
export function windowLengthMs(text: string): number | null {
  const match = /^(\d{1,6})([mhd])$/.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * { m: MINUTE_MS, h: HOUR_MS, d: 24 * HOUR_MS }[match[2] as 'm' | 'h' | 'd'];
  return ms > 0 ? ms : null;
}

/** A level as the report's `--json`, its table and the partner route write it (snake_case, wire instants). */
export interface DeliveryLevelWire {
  delivered: number;
  p50_seconds: number | null;
  p99_seconds: number | null;
  first_attempts: number;
  first_attempts_delivered: number;
  /** Rounded to four places. */
  first_attempt_success_rate: number | null;
  waiting: number;
  oldest_waiting_since: string | null;
  oldest_waiting_age_seconds: number | null;
}

export function toDeliveryLevelWire(level: DeliveryLevel): DeliveryLevelWire {
  const rate = level.firstAttemptSuccessRate;
  return {
    delivered: level.delivered,
    p50_seconds: level.p50Seconds,
    p99_seconds: level.p99Seconds,
    first_attempts: level.firstAttempts,
    first_attempts_delivered: level.firstAttemptsDelivered,
    first_attempt_success_rate: rate === null ? null : Math.round(rate * 10_000) / 10_000,
    waiting: level.waiting,
    oldest_waiting_since: level.oldestWaitingSince === null ? null : wireTime(level.oldestWaitingSince),
    oldest_waiting_age_seconds: level.oldestWaitingAgeSeconds === null ? null : Math.round(level.oldestWaitingAgeSeconds),
  };
}
