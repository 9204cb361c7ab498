import { addDays } from './dates.ts';
import { overallStatusOf } from './evaluate.ts';
import { TimeHorizon } from './next-change.ts';
import type { ComplianceEvaluation, OverallStatus, RequirementRow, RequirementStatus } from './types.ts';

/** How far ahead a check on a date, and a forecast, may look (docs/compliance.md). */
export const FORECAST_HORIZON_DAYS = 730;

/** The first change of a crew member's overall status that the calendar alone brings. */
export interface StatusChange {
  /** YYYY-MM-DD: the first day with the new status. */
  on: string;
  overallStatus: OverallStatus;
  /** Required rows whose status changes that day, sorted. */
  requirementKeys: string[];
}

export interface ForecastOptions {
  windowDays: number;
  horizonDays?: number;
  /**
   * Rows whose changes must not show: they are held at their status in the first evaluation, so
   * neither the date nor the keys reveal them (medical rows without crew:medical:read, decided on
   * today whatever `from`: EvaluationInput.medicalOn, docs/decisions.md §6).
   */
  hidden?: (row: RequirementRow) => boolean;
}

/** The row statuses an overall status is computed from, with hidden rows held at `held`. */
function overallWith(evaluation: ComplianceEvaluation, held: ReadonlyMap<string, RequirementStatus>): OverallStatus {
  if (evaluation.overallStatus === 'no_role') return 'no_role';
  if (held.size === 0) return evaluation.overallStatus;
  return overallStatusOf(evaluation.requirements.map((r) => (held.has(r.key) ? { ...r, status: held.get(r.key)! } : r)));
}

function changedKeys(before: ComplianceEvaluation, after: ComplianceEvaluation, held: ReadonlyMap<string, RequirementStatus>): string[] {
  const was = new Map(before.requirements.filter((r) => r.required).map((r) => [r.key, r.status]));
  const keys = new Set<string>();
  for (const row of after.requirements) {
    if (row.required && !held.has(row.key) && was.get(row.key) !== row.status) keys.add(row.key);
    was.delete(row.key);
  }
  for (const key of was.keys()) if (!held.has(key)) keys.add(key);
  return [...keys].sort();
}

/**
 * The first date after `from`, up to `from + horizonDays`, on which the overall status of
 * `evaluateOn(date)` differs from the day before, or null. The documents are those held now: no
 * renewal is assumed. Only the dates at which some row can change (TimeHorizon) are evaluated, not
 * every day; between two of them every row keeps its status.
 */
export function nextStatusChange(
  evaluateOn: (date: string) => ComplianceEvaluation,
  from: string,
  options: ForecastOptions,
  first = evaluateOn(from),
): StatusChange | null {
  const end = addDays(from, options.horizonDays ?? FORECAST_HORIZON_DAYS);
  const hidden = options.hidden;
  const held = new Map(hidden ? first.requirements.filter(hidden).map((r) => [r.key, r.status]) : []);
  const visible = (evaluation: ComplianceEvaluation): ComplianceEvaluation =>
    held.size === 0 ? evaluation : { ...evaluation, requirements: evaluation.requirements.filter((r) => !held.has(r.key)) };
  const base = overallWith(first, held);
  let previous = first;
  let day = from;
  for (;;) {
    const horizon = new TimeHorizon(day, options.windowDays);
    horizon.evaluation(visible(previous));
    const next = horizon.earliest;
    if (next === null || next > end) return null;
    const evaluation = evaluateOn(next);
    const status = overallWith(evaluation, held);
    if (status !== base) return { on: next, overallStatus: status, requirementKeys: changedKeys(previous, evaluation, held) };
    previous = evaluation;
    day = next;
  }
}
