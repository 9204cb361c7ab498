/** The time source every service takes, so tests can fix it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * A clock that reads `start` when created and runs on at the pace of `base` (SVC_NOW): a one-shot
 * command sees that instant, a server keeps rate-limit windows and link lifetimes moving.
 */
export function clockStartingAt(start: string, base: Clock): Clock {
  const offset = Date.parse(start) - base().getTime();
  return () => new Date(base().getTime() + offset);
}

/** The second an instant falls in, formatted: toISOString up to its milliseconds, and the day and wire time taken from it. */
interface SecondText {
  second: number;
  /** `YYYY-MM-DDTHH:MM:SS.`, whatever the year's width (toISOString always ends in `sssZ`). */
  head: string;
  day: string;
  wire: string;
}

let lastSecond: SecondText = { second: Number.NaN, head: '', day: '', wire: '' };

/**
 * The texts of `at`'s second, formatted once per second: every call makes an audit time, an
 * `as_of` and today's date, and V8 formats a date in C++ each time.
 */
function secondText(at: Date): SecondText {
  const second = Math.floor(at.getTime() / 1000);
  if (second !== lastSecond.second) {
    const head = at.toISOString().slice(0, -4);
    lastSecond = { second, head, day: head.slice(0, 10), wire: `${head.slice(0, -1)}Z` };
  }
  return lastSecond;
}

/** `at.toISOString()`, the part up to the milliseconds formatted once per second (secondText). */
export function isoTime(at: Date): string {
  const text = secondText(at);
  const milli = at.getTime() - text.second * 1000;
  return `${text.head}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/** UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return secondText(at).day;
}

/**
 * An instant as the API, webhooks and events feed write it: UTC, whole seconds, `Z`
 * (`2026-11-22T10:00:00Z`). Stored values of any ISO 8601 form are normalised on the way out.
 */
export function wireTime(at: Date | string): string {
  if (at === lastWire.from) return lastWire.to;
  const to = secondText(typeof at === 'string' ? new Date(at) : at).wire;
  if (typeof at === 'string') lastWire = { from: at, to };
  return to;
}

/** The last text wireTime normalised: calls answered in the same millisecond share their `as_of`. */
let lastWire: { from: string | null; to: string } = { from: null, to: '' };
