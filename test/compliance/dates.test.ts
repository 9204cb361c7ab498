import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dayNumber, isIsoDate } from '../../src/domain/compliance/dates.ts';

/*
 * isIsoDate and dayNumber read a date from its characters; the oracle is the obvious reading
 * through Date: parse the text as midnight UTC and check it prints back the same day, and count
 * days from a Date set to the day's year, month and day (setUTCFullYear, since Date.UTC reads the
 * years 0-99 as 1900-1999).
 */
const DAY_MS = 86_400_000;

function dateSaysValid(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(text);
}

function dateDayNumber(text: string): number {
  const at = new Date(0);
  at.setUTCFullYear(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  return at.getTime() / DAY_MS;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Every day of the years 0001-9999. */
const realDay = fc
  .integer({ min: dateDayNumber('0001-01-01'), max: dateDayNumber('9999-12-31') })
  .map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10));

/** Well-formed text whose month or day may not exist: month 00-19, day 00-39. */
const anyParts = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`);

/** A real day with one character replaced, inserted or removed, or with text around it. */
const oddChar = fc.constantFrom('/', ' ', '-', '+', 'T', 'Z', 'a', '.', '\u0660', '\uff11', '\n', '\u0000', '0', '9');
const malformed = fc.oneof(
  fc.tuple(realDay, fc.nat(9), oddChar).map(([day, at, c]) => day.slice(0, at) + c + day.slice(at + 1)),
  fc.tuple(realDay, fc.nat(10), oddChar).map(([day, at, c]) => day.slice(0, at) + c + day.slice(at)),
  fc.tuple(realDay, fc.nat(9)).map(([day, at]) => day.slice(0, at) + day.slice(at + 1)),
  fc.tuple(fc.string({ maxLength: 3 }), realDay, fc.string({ maxLength: 3 })).map(([before, day, after]) => before + day + after),
  fc.string({ minLength: 10, maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

describe('compliance dates read from their characters', () => {
  it('every day of the years 0001-9999 is a date, numbered as Date numbers it (with or without a time part)', () => {
    fc.assert(
      fc.property(realDay, (day) => {
        assert.equal(isIsoDate(day), true);
        assert.equal(dayNumber(day), dateDayNumber(day));
        assert.equal(dayNumber(`${day}T23:59:59Z`), dateDayNumber(day));
      }),
      { numRuns: 3000 },
    );
  });

  it('the day after a date is numbered one more, across month ends, year ends and leap days', () => {
    fc.assert(
      fc.property(realDay, (day) => {
        fc.pre(day !== '9999-12-31');
        const next = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
        assert.equal(dayNumber(next), dayNumber(day) + 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('a written date whose month or day does not exist is refused exactly when Date refuses it', () => {
    fc.assert(
      fc.property(anyParts, (text) => assert.equal(isIsoDate(text), dateSaysValid(text), text)),
      { numRuns: 3000 },
    );
    for (const text of ['2024-02-29', '2000-02-29', '0000-02-29', '2026-02-29', '1900-02-29', '2026-04-31', '2026-00-10', '2026-13-01']) {
      assert.equal(isIsoDate(text), dateSaysValid(text), text);
    }
  });

  it('malformed text is refused exactly when Date refuses it', () => {
    fc.assert(
      fc.property(malformed, (text) => assert.equal(isIsoDate(text), dateSaysValid(text), JSON.stringify(text))),
      { numRuns: 5000 },
    );
  });
});
