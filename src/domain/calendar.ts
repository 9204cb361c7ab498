import { refine, str, type FieldParser } from './fields.ts';

/*
 * The one reading of calendar dates and instants for every door: fixture files
 * (src/services/fixtures/schema.ts), request bodies and the operator's flags (`--since`, `--until`,
 * `--activate-at`, SVC_NOW). Date.parse is never the judge: it rolls 2027-02-29 over to March 1 and
 * reads "1" or "may 5" as dates of 2001.
 */

const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** The form instants are stored in and compared as text: UTC, `Z`, seconds written. */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

const ZERO = 48;
const DASH = 45;

/**
 * The number the ASCII digits of `text` from `start` up to `end` write, or NaN when one of them is
 * not 0-9. Dates are read by char code, not by a regex or Date.parse: a fleet's evaluations read
 * tens of thousands of them (docs/performance.md, "Dates read from their characters").
 */
export function digitsAt(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (!(digit >= 0 && digit <= 9)) return NaN;
    n = n * 10 + digit;
  }
  return n;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** A real calendar date written `YYYY-MM-DD` (2027-02-29 and 2027-13-45 are not). */
export function isCalendarDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * An ISO 8601 instant, strictly: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z` or an offset `±HH:MM`,
 * on a real calendar day at a real time of day (no 24:00, no leap second); with `dateAllowed`, a
 * bare `YYYY-MM-DD` too, meaning its midnight UTC. Anything else is null.
 */
export function parseInstant(text: string, options: { dateAllowed?: boolean } = {}): Date | null {
  if (options.dateAllowed && isCalendarDate(text)) return new Date(`${text}T00:00:00Z`);
  const match = INSTANT.exec(text);
  if (!match || !isCalendarDate(match[1]!)) return null;
  const [hour, minute, second, offsetHour, offsetMinute] = match.slice(2).map((part) => Number(part ?? 0));
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHour! > 23 || offsetMinute! > 59) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** What `parseInstant` reads without `dateAllowed`, in words for messages and help texts. */
export const INSTANT_WORDS = 'an ISO 8601 date-time with a time zone (2026-11-22T10:00:00Z)';

/** A calendar date field (`YYYY-MM-DD` on a real day), or a `value_error`. */
export const calendarDate: FieldParser<string> = Object.assign(
  refine(str(), (v) => (isCalendarDate(v) ? null : 'should be a real calendar date written YYYY-MM-DD')),
  { schema: { type: 'string', format: 'date' } },
);

/**
 * An instant field as the store keeps it (`2026-11-22T10:00:00Z`, fractions allowed), on a real
 * day and time, or a `value_error`; the text is kept as given.
 */
export const storedInstant: FieldParser<string> = Object.assign(
  refine(str(), (v) => (STORED_INSTANT.test(v) && parseInstant(v) ? null : 'should be a real UTC date-time such as 2026-11-22T10:00:00Z')),
  { schema: { type: 'string', format: 'date-time' } },
);
