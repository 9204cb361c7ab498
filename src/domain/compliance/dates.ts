import { digitsAt, isCalendarDate } from '../calendar.ts';

const DAY_MS = 86_400_000;

/** A real calendar date written `YYYY-MM-DD` (2026-02-30 is not), as src/domain/calendar.ts reads one. */
export function isIsoDate(value: string): boolean {
  return isCalendarDate(value);
}

/**
 * Whole days since 1970-01-01 of a `YYYY-MM-DD` date (any time part is ignored; NaN when a part is
 * not digits), counted on the proleptic Gregorian calendar from its digits, not through Date.UTC:
 * H. Hinnant's days_from_civil, with March as the first month of a year so that February's leap
 * day falls at a year's end.
 */
export function dayNumber(date: string): number {
  const month = digitsAt(date, 5, 7);
  const year = digitsAt(date, 0, 4) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + digitsAt(date, 8, 10) - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}
