import { define, type Struct } from 'superstruct';
import { calendarDate, storedInstant } from './calendar.ts';
import { str, type FieldParser } from './fields.ts';

/*
 * Superstruct types (the fixture schema, src/services/fixtures/schema.ts, and the domain schemas it
 * holds) made from the field parsers the HTTP routes and the CLI use (fields.ts, calendar.ts), so a
 * date, an instant or a text is held to one rule at every door.
 */

/** The longest text each kind of field holds, in UTF-16 code units (docs/fixtures.md, "Limits"). */
export const TEXT_LIMITS = {
  /** Ids of every resource. */
  id: 128,
  /** Names, ranks, roles, positions, codes, numbers, address lines: anything written on one line. */
  short: 200,
  /** A document's title. */
  title: 300,
  /** Free text (a crew member's bio, a file's `$comment`). */
  long: 4000,
} as const;

/**
 * A superstruct type accepting exactly what `parser` accepts and leaves as it is (a string parser:
 * lax ones that convert, such as int(), are refused by design); its failure message is the issue's.
 */
export function fieldStruct<T>(name: string, parser: FieldParser<T>): Struct<T, null> {
  return define<T>(name, (value) => {
    const parsed = parser(value, []);
    if (parsed.ok) return parsed.value === value || `${name} was read as another value`;
    return parsed.issues.map((found) => found.msg.replace(/^Value error, /, '')).join('; ');
  });
}

/** A string of at most `maxLength` characters (and at least `minLength`), holding no NUL. */
export function text(maxLength: number, minLength = 0): Struct<string, null> {
  return fieldStruct('text', str({ minLength, maxLength }));
}

/** `YYYY-MM-DD` on a real calendar day (2027-02-29 is not). */
export const IsoDate = fieldStruct('date', calendarDate);

/** An instant as the store keeps it (`2026-11-22T10:00:00Z`), on a real day and time. */
export const IsoTime = fieldStruct('instant', storedInstant);
