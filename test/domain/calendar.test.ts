import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isCalendarDate, parseInstant } from '../../src/domain/calendar.ts';
import { jsonShapeProblems } from '../../src/domain/json-shape.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The oracle: the day exists when a UTC date built from its parts reads back the same parts. */
function dayExists(year: number, month: number, day: number): boolean {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

describe('calendar dates and instants', () => {
  it('a date is accepted exactly when that day exists (every month, leap years, years below 100)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        assert.equal(isCalendarDate(`${pad(y, 4)}-${pad(m)}-${pad(d)}`), m >= 1 && m <= 12 && dayExists(y, m, d));
      }),
      { numRuns: 2000 },
    );
  });

  it('an instant is read as the moment it names, or refused when its day or time of day does not exist', () => {
    const parts = fc.record({
      y: fc.integer({ min: 1970, max: 2200 }),
      m: fc.integer({ min: 1, max: 13 }),
      d: fc.integer({ min: 1, max: 31 }),
      h: fc.integer({ min: 0, max: 24 }),
      min: fc.integer({ min: 0, max: 60 }),
      s: fc.integer({ min: 0, max: 60 }),
      offset: fc.integer({ min: -14 * 60, max: 14 * 60 }),
    });
    fc.assert(
      fc.property(parts, (p) => {
        const zone =
          p.offset === 0 ? 'Z' : `${p.offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(p.offset) / 60))}:${pad(Math.abs(p.offset) % 60)}`;
        const text = `${pad(p.y, 4)}-${pad(p.m)}-${pad(p.d)}T${pad(p.h)}:${pad(p.min)}:${pad(p.s)}${zone}`;
        const real = p.m <= 12 && dayExists(p.y, p.m, p.d) && p.h < 24 && p.min < 60 && p.s < 60;
        const expected = real ? Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - p.offset * 60_000 : null;
        assert.equal(parseInstant(text)?.getTime() ?? null, expected, text);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what Date.parse would guess at; a bare date only where dates are allowed', () => {
    for (const text of ['1', 'may 5', '2026', '2026-11-22T10:00:00', '2026-11-22 10:00:00Z', '2026-11-22T10:00:00+24:00', 'tomorrow', '']) {
      assert.equal(parseInstant(text, { dateAllowed: true }), null, text);
    }
    assert.equal(parseInstant('2027-02-29T00:00:00Z'), null);
    assert.equal(parseInstant('2026-11-22'), null);
    assert.equal(parseInstant('2026-11-22', { dateAllowed: true })?.toISOString(), '2026-11-22T00:00:00.000Z');
    assert.equal(parseInstant('2026-11-22T10:00Z')?.toISOString(), '2026-11-22T10:00:00.000Z');
    assert.equal(parseInstant('2026-11-22T10:00:00.123456+02:00')?.toISOString(), '2026-11-22T08:00:00.123Z');
  });
});

describe('the shape of parsed JSON', () => {
  it('reports NUL in values and keys and the level where nesting passes the limit, without recursion', () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    assert.deepEqual(jsonShapeProblems({ a: [{ 'k\u0000': 1 }, 'x\u0000'], deep }, 4), [
      { path: ['a', 0], message: 'keys must not contain NUL characters' },
      { path: ['a', 1], message: 'text must not contain NUL characters' },
      { path: ['deep', 0, 0, 0], message: 'nested deeper than 4 levels' },
    ]);
    assert.deepEqual(jsonShapeProblems({ a: [[['fine']]] }, 4), []);
  });

  it('reports a lone surrogate in values and keys; a pair (an emoji) is fine', () => {
    assert.deepEqual(jsonShapeProblems({ a: ['x\ud800', '\udfffx', 'ok \ud83d\ude00'], b: { 'k\udc00': 1 } }), [
      { path: ['a', 0], message: 'text must be valid Unicode (a lone surrogate, \\ud800 to \\udfff, cannot be stored)' },
      { path: ['a', 1], message: 'text must be valid Unicode (a lone surrogate, \\ud800 to \\udfff, cannot be stored)' },
      { path: ['b'], message: 'keys must be valid Unicode' },
    ]);
  });
});
