import { refine, str, type FieldParser } from '../fields.ts';
import { issues, type Loc, type ValidationIssue } from '../validation-issues.ts';
import { addDays, isIsoDate } from './dates.ts';
import { FORECAST_HORIZON_DAYS } from './status-forecast.ts';

/** The `on` field of the check's body and of the fleet list and matrix queries: a calendar date. */
export const onDate: FieldParser<string> = Object.assign(
  refine(str(), (v) => (isIsoDate(v) ? null : 'on must be a calendar date written YYYY-MM-DD')),
  { schema: { type: 'string', format: 'date' } },
);

/**
 * The issue of an `on` outside today … today + FORECAST_HORIZON_DAYS (both inclusive), or null. The
 * bound moves with the clock, so it is checked with the request's today, after the field parsed.
 */
export function onDateIssue(loc: Loc, on: string | undefined, today: string): ValidationIssue | null {
  if (on === undefined) return null;
  const last = addDays(today, FORECAST_HORIZON_DAYS);
  return on < today || on > last ? issues.valueError(loc, on, `on must be between ${today} and ${last}`) : null;
}

/**
 * The date a reader is shown medical rows as they stand on, when it is not `on`: without
 * crew:medical:read, today, whatever `on` (docs/decisions.md §6, "Medical rows on a date"), so no
 * date reveals what the calendar will do to them; undefined when the rows are those of `on`.
 */
export function medicalRowsOn(on: string, today: string, medicalVisible: boolean): string | undefined {
  return medicalVisible || on === today ? undefined : today;
}
