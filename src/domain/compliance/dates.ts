import { boundedMemo } from '../bounded-memo.ts';

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

// Every evaluation checks its date and counts days to each expiry, and a fleet's evaluations meet
// the same few thousand dates again and again: each answer is worked out once per text.
const DATES_KEPT = 20_000;

function checkIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value);
}

/** A real calendar date written `YYYY-MM-DD` (2026-02-30 is not). */
export const isIsoDate: (value: string) => boolean = boundedMemo(DATES_KEPT, checkIsoDate);

/** Whole days since 1970-01-01 of a `YYYY-MM-DD` date (any time part is ignored). */
export const dayNumber: (date: string) => number = boundedMemo(
  DATES_KEPT,
  (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS,
);

export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}
