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
