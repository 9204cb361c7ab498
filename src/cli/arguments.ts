import { InvalidArgumentError } from 'commander';
import { parseInstant } from '../domain/calendar.ts';
import { windowLengthMs } from '../domain/delivery-level.ts';

/**
 * Parsers for option values. A value they refuse is bad usage: commander reports it with the
 * option's name and runCli exits 64, before any store is opened.
 */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return Number(value);
}

export function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return Number(value);
}

/** `404` → 404–404, `4xx` → 400–499; `0` is a command-line action that succeeded. */
export function statusRange(value: string): { from: number; to: number } {
  const exact = /^(0|[1-5]\d\d)$/.exec(value);
  if (exact) return { from: Number(value), to: Number(value) };
  const cls = /^([1-5])xx$/i.exec(value);
  if (cls) return { from: Number(cls[1]) * 100, to: Number(cls[1]) * 100 + 99 };
  throw new InvalidArgumentError('expected a status such as 404, a class such as 4xx, or 0 (a command that succeeded)');
}

/**
 * Where a report's window starts: a length back from now (`24h`, `90m`, `7d`), or an instant
 * (YYYY-MM-DD, midnight UTC, or an ISO 8601 date-time with a time zone).
 */
export function windowStart(value: string): { lengthMs: number } | { at: string } {
  const lengthMs = windowLengthMs(value);
  if (lengthMs !== null) return { lengthMs };
  const at = parseInstant(value, { dateAllowed: true });
  if (at) return { at: at.toISOString() };
  throw new InvalidArgumentError('expected a length back from now such as 24h, 90m or 7d, or an ISO 8601 date or date-time');
}
