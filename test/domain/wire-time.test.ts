import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { utcDate, wireTime } from '../../src/domain/clock.ts';

describe('wire time', () => {
  it('is the instant in UTC to the second with Z, from a Date or any ISO 8601 text of it', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), fc.integer({ min: -14, max: 14 }), (at, hours) => {
        const expected = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
        assert.equal(wireTime(at), expected);
        assert.equal(wireTime(at.toISOString()), expected);
        if (at.getUTCFullYear() < 1 || at.getUTCFullYear() > 9998) return;
        // The same instant written with an offset.
        const shifted = new Date(at.getTime() + hours * 3_600_000).toISOString().slice(0, 23);
        const offset = `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:00`;
        assert.equal(wireTime(`${shifted}${offset}`), expected);
      }),
    );
  });

  it("utcDate and wireTime are toISOString's, for instants in any order, several in one second included", () => {
    const base = fc.date({ noInvalidDate: true, min: new Date(-8.64e15 + 5000), max: new Date(8.64e15 - 5000) });
    fc.assert(
      fc.property(base, fc.array(fc.integer({ min: -2500, max: 2500 }), { minLength: 1 }), (at, steps) => {
        for (const step of steps) {
          const instant = new Date(at.getTime() + step);
          const iso = instant.toISOString();
          assert.equal(utcDate(instant), iso.slice(0, 10));
          assert.equal(wireTime(instant), iso.replace(/\.\d{3}Z$/, 'Z'));
        }
      }),
    );
  });
});
