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
