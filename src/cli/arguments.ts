import { InvalidArgumentError } from 'commander';

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
