import { AppError } from '../domain/app-error.ts';

function instant(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new AppError('invalid_input', `${name} "${value}" is not an ISO-8601 date or date-time`);
  return new Date(ms).toISOString();
}

/** An operator's `--since`/`--until` as ISO-8601 UTC instants; invalid_input when either is not a date or since is after until. */
export function checkedRange(sinceText: string | undefined, untilText: string | undefined): { since?: string; until?: string } {
  const since = instant(sinceText, 'since');
  const until = instant(untilText, 'until');
  if (since && until && since > until) throw new AppError('invalid_input', `since ${since} is after until ${until}`);
  return { since, until };
}
