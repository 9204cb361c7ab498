import { requirementsForRole } from './catalogue-index.ts';
import { indexDocuments } from './candidates.ts';
import { addDays, dayNumber, isIsoDate } from './dates.ts';
import { requirementRow, type RowContext } from './requirement-rows.ts';
import { NON_COMPLIANT } from '../vocabulary.ts';
import type {
  ComplianceEvaluation,
  ComplianceSummary,
  EvaluationInput,
  OverallStatus,
  RequirementRow,
  RequirementStatus,
} from './types.ts';

function summarise(rows: readonly RequirementRow[]): ComplianceSummary {
  const summary: ComplianceSummary = { total: rows.length, met: 0, expiring: 0, expired: 0, missing: 0, pending: 0 };
  for (const r of rows) summary[r.status] += 1;
  return summary;
}

/** docs/decisions.md §6: the overall status given by the statuses of the required rows (read until one decides it). */
export function overallOfStatuses(statuses: Iterable<RequirementStatus>): Exclude<OverallStatus, 'no_role'> {
  let atRisk = false;
  for (const status of statuses) {
    if (status === 'expired' || status === 'missing') return NON_COMPLIANT;
    if (status === 'expiring' || status === 'pending') atRisk = true;
  }
  return atRisk ? 'at_risk' : 'compliant';
}

function* requiredStatuses(rows: readonly RequirementRow[]): Generator<RequirementStatus> {
  for (const row of rows) if (row.required) yield row.status;
}

/** docs/decisions.md §6: only required rows decide the overall status. */
export function overallStatusOf(rows: readonly RequirementRow[]): Exclude<OverallStatus, 'no_role'> {
  return overallOfStatuses(requiredStatuses(rows));
}

function assertInput(input: EvaluationInput): void {
  if (!isIsoDate(input.today)) throw new RangeError(`today must be a YYYY-MM-DD date, got ${JSON.stringify(input.today)}`);
  if (input.medicalOn !== undefined && !isIsoDate(input.medicalOn)) {
    throw new RangeError(`medicalOn must be a YYYY-MM-DD date, got ${JSON.stringify(input.medicalOn)}`);
  }
  if (!Number.isInteger(input.windowDays) || input.windowDays < 0) {
    throw new RangeError(`windowDays must be a non-negative integer, got ${input.windowDays}`);
  }
}

/**
 * Evaluates a crew member's documents against the requirements of their role on a vessel
 * (docs/compliance-rules.md, docs/decisions.md §6). Pure and deterministic (document order is irrelevant).
 *
 * Interpretations:
 * - A verified, approved document with a known expiry (or none) decides the row, even expired;
 *   unverified, unapproved or undated candidates give `pending` only when no such document is
 *   held, whatever their own dates. Ties go to the later issue date, then the smaller id.
 * - `satisfiedBy`: the valid unexpired documents (all valid ones when expired), or the pending
 *   candidates, best first; a pending row shows its best candidate's expiry. A `missing` row has
 *   no expiry and an empty `satisfiedBy`, even when some of its modules are held.
 * - BST: worst module status; row expiry = earliest module expiry; each module's best document
 *   listed once in `satisfiedBy`.
 * - `validity_years` is informative only: the recorded expiry (or `no_expiry`) is trusted.
 * - Flag endorsement: a row only when the CoC row's best document (valid, else pending, else
 *   expired) names a flag other than the vessel's (case-insensitive); no CoC or a CoC without a
 *   flag means no row. Only endorsements naming the vessel's flag count, their row expiry capped
 *   at that CoC's expiry (`satisfiedBy` keeps the endorsement's own date).
 * - A rating CoP must be the role's own code; a higher CoP does not stand in for a lower one.
 * - An ETO CoC (III/6) covers the eto role only, and no other CoC covers an ETO.
 * - With `medicalOn`, the rows of the medical group are decided on that date instead of `today`
 *   (a reader without crew:medical:read sees them as they stand today on any date, docs/decisions.md §6).
 */
export function evaluateCompliance(input: EvaluationInput): ComplianceEvaluation {
  assertInput(input);
  const { vessel } = input;
  const forRole = requirementsForRole(input.catalogue, input.role);
  if (!forRole) {
    return {
      vesselId: vessel.vesselId,
      positionName: input.positionName,
      overallStatus: 'no_role',
      summary: summarise([]),
      requirements: [],
    };
  }
  const window = (day: string) => ({ today: day, todayDay: dayNumber(day), windowEnd: addDays(day, input.windowDays) });
  const ctx: RowContext = {
    role: input.role,
    vessel,
    window: window(input.today),
    index: indexDocuments(input.documents),
    requirements: forRole.filter((r) => r.vesselTypes === null || r.vesselTypes.has(vessel.vesselType)),
    cocMemo: new Map(),
  };
  const medicalOn = input.medicalOn ?? input.today;
  const medical: RowContext = medicalOn === input.today ? ctx : { ...ctx, window: window(medicalOn), cocMemo: new Map() };
  const rows: RequirementRow[] = [];
  for (const req of ctx.requirements) {
    const row = requirementRow(req, req.def.group === 'medical' ? medical : ctx);
    if (row) rows.push(row);
  }
  return {
    vesselId: vessel.vesselId,
    positionName: input.positionName,
    overallStatus: overallStatusOf(rows),
    summary: summarise(rows),
    requirements: rows,
  };
}
