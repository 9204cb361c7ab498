import { AppError } from '../domain/app-error.ts';
import { parseInstant } from '../domain/calendar.ts';

function instant(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const at = parseInstant(value, { dateAllowed: true });
  if (!at) {
    throw new AppError(
      'invalid_input',
      `${name} "${value}" is not an ISO-8601 date (YYYY-MM-DD, midnight UTC) or date-time with a time zone ` +
        '(2026-11-22T10:00:00Z) on a real calendar day',
    );
  }
  return at.toISOString();
}

/**
 * An operator's `--since`/`--until` as ISO-8601 UTC instants, read strictly (src/domain/calendar.ts);
 * invalid_input when either is not a real date or date-time, or since is after until.
 */
export function checkedRange(sinceText: string | undefined, untilText: string | undefined): { since?: string; until?: string } {
  const since = instant(sinceText, 'since');
  const until = instant(untilText, 'until');
  if (since && until && since > until) throw new AppError('invalid_input', `since ${since} is after until ${until}`);
  return { since, until };
}
