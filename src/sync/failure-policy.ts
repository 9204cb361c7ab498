import type { DeliveryOutcome } from '../domain/vocabulary.ts';

/*
 * The one place that decides what a delivery attempt's result means and when the next attempt
 * is due (docs/decisions.md §7). Delivery code asks these functions and never re-derives the rules.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Attempts in all before an event is dead-lettered. */
export const MAX_ATTEMPTS = 8;
/** Attempts made back to back inside one sync run (src/sync/delivery/attempt-event.ts); later ones are persisted. */
export const IN_RUN_ATTEMPTS = 3;
/** Wait after attempt n failed, at index n - 1: ~2 s and ~8 s in the run, then 5 min … 10 h. */
export const RETRY_WAITS_MS = [2 * SECOND, 8 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR] as const;
/** In-run waits vary by ±20 % so many failing events do not retry in lockstep. */
const IN_RUN_JITTER = 0.2;
/** A Retry-After longer than this is taken as this. */
export const MAX_RETRY_AFTER_MS = HOUR;
/** A run waits at most this long between two of its own attempts; a longer wait moves the next attempt to a later run. */
export const MAX_IN_RUN_WAIT_MS = 30 * SECOND;

/** What one HTTP attempt produced (never an exception). */
export interface AttemptResult {
  statusCode: number | null;
  /** Network error, timeout or refusal, in words; null when a response arrived. */
  error: string | null;
  /** The first 2 KiB of the response body. */
  responseBody: string | null;
  latencyMs: number;
  /** Retry-After of the response, in milliseconds, when it sent one. */
  retryAfterMs: number | null;
  /** The destination was refused by the address policy; nothing was sent. */
  refused: boolean;
}

export type Verdict = 'delivered' | 'retry' | 'permanent';

/**
 * 2xx delivers. A 4xx other than 408/429, or a refused destination, is permanent: the event is
 * dead-lettered at once. Everything else (3xx, 5xx, 408, 429, network error, timeout) is retried.
 */
export function judgeAttempt(result: AttemptResult): Verdict {
  if (result.refused) return 'permanent';
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429) return 'permanent';
  return 'retry';
}

/**
 * A 410 Gone: the receiver says the endpoint is gone for good (Standard Webhooks' meaning). Its
 * event is dead-lettered as for any permanent 4xx, and the endpoint is disabled with that reason
 * (src/sync/delivery/record.ts), its other events waiting in the outbox until it is re-enabled.
 */
export function endpointGone(result: AttemptResult): boolean {
  return !result.refused && result.statusCode === 410;
}

/** What an attempt's record says happened: the outbox and dead letters follow from it. */
export type AttemptOutcome = DeliveryOutcome;

/** The decision after one attempt: its outcome and, for a retry, the wait before the next one. */
export interface AttemptDecision {
  outcome: AttemptOutcome;
  waitMs: number;
}

/**
 * After attempt `attemptNo` (1-based): delivered; failed_permanent (dead-lettered at once); dead
 * (the 8th failure, dead-lettered); or retry after `waitMs`.
 */
export function decideAfterAttempt(attemptNo: number, result: AttemptResult, random: () => number): AttemptDecision {
  const verdict = judgeAttempt(result);
  if (verdict === 'delivered') return { outcome: 'delivered', waitMs: 0 };
  if (verdict === 'permanent') return { outcome: 'failed_permanent', waitMs: 0 };
  if (attemptNo >= MAX_ATTEMPTS) return { outcome: 'dead', waitMs: 0 };
  return { outcome: 'retry', waitMs: nextWaitMs(attemptNo, result.retryAfterMs, random) };
}

/** How many attempts a run makes for an event that has had `attemptsSoFar`. */
export function attemptsThisRun(attemptsSoFar: number): number {
  return Math.max(1, Math.min(IN_RUN_ATTEMPTS - attemptsSoFar, MAX_ATTEMPTS - attemptsSoFar));
}

/**
 * The wait after attempt `attemptNo` (1-7) failed. A Retry-After (capped at 1 h) only ever
 * lengthens it. `random` is in [0, 1).
 */
export function nextWaitMs(attemptNo: number, retryAfterMs: number | null, random: () => number): number {
  const base = RETRY_WAITS_MS[Math.min(attemptNo, RETRY_WAITS_MS.length) - 1]!;
  const wait = attemptNo < IN_RUN_ATTEMPTS ? Math.round(base * (1 - IN_RUN_JITTER + 2 * IN_RUN_JITTER * random())) : base;
  return Math.max(wait, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** Retry-After as delay-seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
