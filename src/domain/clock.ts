/** The time source every service takes, so tests can fix it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date-time with an offset (`2026-11-22T10:00:00Z`, `…+02:00`), on a real calendar day. */
export function isIsoDateTime(value: string): boolean {
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return false;
  const [, year, month, dayOfMonth, hour, minute] = match.map(Number) as number[];
  const day = new Date(Date.UTC(year!, month! - 1, dayOfMonth!));
  return !Number.isNaN(Date.parse(value)) && hour! < 24 && minute! < 60 && day.getUTCMonth() === month! - 1 && day.getUTCDate() === dayOfMonth;
}

/**
 * A clock that reads `start` when created and runs on at the pace of `base` (SVC_NOW): a one-shot
 * command sees that instant, a server keeps rate-limit windows and link lifetimes moving.
 */
export function clockStartingAt(start: string, base: Clock): Clock {
  const offset = Date.parse(start) - base().getTime();
  return () => new Date(base().getTime() + offset);
}

/**
 * `at.toISOString()`, with everything up to the milliseconds formatted once per second: the audit
 * row's time and the compliance check's `as_of` are made on every call, and V8 formats a date in
 * C++ each time. The text always ends in `.sssZ`, whatever the year's width.
 */
export function isoTime(at: Date): string {
  const ms = at.getTime();
  const second = Math.floor(ms / 1000);
  if (second !== lastIso.second) lastIso = { second, head: at.toISOString().slice(0, -4) };
  const milli = ms - second * 1000;
  return `${lastIso.head}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

let lastIso: { second: number; head: string } = { second: Number.NaN, head: '' };

/**
 * An instant as the API, webhooks and events feed write it: UTC, whole seconds, `Z`
 * (`2026-11-22T10:00:00Z`). Stored values of any ISO 8601 form are normalised on the way out.
 */
export function wireTime(at: Date | string): string {
  if (at === lastWire.from) return lastWire.to;
  const date = typeof at === 'string' ? new Date(at) : at;
  // toISOString always ends in `.sssZ`: cut rather than match (every answer carries one).
  const to = `${date.toISOString().slice(0, -5)}Z`;
  if (typeof at === 'string') lastWire = { from: at, to };
  return to;
}

/** The last text wireTime normalised: calls answered in the same millisecond share their `as_of`. */
let lastWire: { from: string | null; to: string } = { from: null, to: '' };
