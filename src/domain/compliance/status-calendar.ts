import { addDays } from './dates.ts';
import { overallOfStatuses } from './evaluate.ts';
import { FORECAST_HORIZON_DAYS, type ForecastOptions, type StatusChange } from './status-forecast.ts';
import type { ComplianceEvaluation, OverallStatus, RequirementRow, RequirementStatus } from './types.ts';

/*
 * The first status change the calendar brings, worked out from one evaluation instead of one per
 * candidate date (status-forecast.ts's nextStatusChange, the obvious path it is tested against).
 * Which document decides a row, or a module, does not depend on the date (the best valid one, by
 * expiry then issue date); only its status does: `expired` from the day after its expiry,
 * `expiring` from windowDays before it, `met` until then. Pending and missing rows and modules,
 * and undated ones, keep their status. So each row's status on any later date follows from the
 * first evaluation's expiry dates alone.
 */

const SEVERITY: Readonly<Record<RequirementStatus, number>> = { met: 0, expiring: 1, pending: 2, expired: 3, missing: 4 };

/** A status on a date: fixed, or moving with one dated document. */
type Clock = { fixed: RequirementStatus } | { expiringFrom: string; expiredFrom: string };

function clockOf(status: RequirementStatus | null, expiry: string | null, windowDays: number): Clock {
  if (status === null || status === 'pending' || status === 'missing' || expiry === null) return { fixed: status ?? 'missing' };
  return { expiringFrom: addDays(expiry, -windowDays), expiredFrom: addDays(expiry, 1) };
}

function statusOn(clock: Clock, day: string): RequirementStatus {
  if ('fixed' in clock) return clock.fixed;
  return day >= clock.expiredFrom ? 'expired' : day >= clock.expiringFrom ? 'expiring' : 'met';
}

/** A required row's status as a function of the date: the worst of its modules' for a modular row. */
interface RowClock {
  key: string;
  clocks: Clock[];
}

function rowClock(row: RequirementRow, windowDays: number, held: RequirementStatus | undefined): RowClock {
  if (held !== undefined) return { key: row.key, clocks: [{ fixed: held }] };
  if (row.modules === null) return { key: row.key, clocks: [clockOf(row.status, row.expiryDate, windowDays)] };
  return { key: row.key, clocks: row.modules.map((m) => clockOf(m.status, m.expiryDate, windowDays)) };
}

function rowStatusOn(row: RowClock, day: string): RequirementStatus {
  let worst: RequirementStatus = 'met';
  for (const clock of row.clocks) {
    const status = statusOn(clock, day);
    if (SEVERITY[status] > SEVERITY[worst]) worst = status;
  }
  return worst;
}

function* statusesOn(rows: readonly RowClock[], day: string): Generator<RequirementStatus> {
  for (const row of rows) yield rowStatusOn(row, day);
}

function overallOn(rows: readonly RowClock[], day: string): Exclude<OverallStatus, 'no_role'> {
  return overallOfStatuses(statusesOn(rows, day));
}

/**
 * The same answer as `nextStatusChange(evaluateOn, from, options, first)`, where `first` is the
 * evaluation on `from`: the first date after `from`, up to `from + horizonDays`, on which the
 * overall status differs from the day before, or null. Hidden rows are held at their status in
 * `first`.
 */
export function nextStatusChangeFrom(first: ComplianceEvaluation, from: string, options: ForecastOptions): StatusChange | null {
  if (first.overallStatus === 'no_role') return null;
  const end = addDays(from, options.horizonDays ?? FORECAST_HORIZON_DAYS);
  const required = first.requirements.filter((r) => r.required);
  const rows = required.map((r) => rowClock(r, options.windowDays, options.hidden?.(r) ? r.status : undefined));
  const days = new Set<string>();
  for (const row of rows) {
    for (const clock of row.clocks) {
      if ('fixed' in clock) continue;
      for (const d of [clock.expiringFrom, clock.expiredFrom]) if (d > from && d <= end) days.add(d);
    }
  }
  const base = overallOn(rows, from);
  let previous = from;
  for (const day of [...days].sort()) {
    const status = overallOn(rows, day);
    if (status !== base) {
      const keys = rows.filter((r) => rowStatusOn(r, previous) !== rowStatusOn(r, day)).map((r) => r.key);
      return { on: day, overallStatus: status, requirementKeys: keys.sort() };
    }
    previous = day;
  }
  return null;
}
