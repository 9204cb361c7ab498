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

/** UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * An instant as the API, webhooks and events feed write it: UTC, whole seconds, `Z`
 * (`2026-11-22T10:00:00Z`). Stored values of any ISO 8601 form are normalised on the way out.
 */
export function wireTime(at: Date | string): string {
  const iso = (typeof at === 'string' ? new Date(at) : at).toISOString();
  // toISOString ends in `.sssZ`, whatever the year's width.
  return `${iso.slice(0, -5)}Z`;
}
