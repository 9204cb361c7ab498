import { AppError } from '../../domain/app-error.ts';
import type { Clock } from '../../domain/clock.ts';
import { evaluateCompliance, type ComplianceEvaluation } from '../../domain/compliance/index.ts';
import { utcDate, type CrewDocument } from '../../domain/document.ts';
import type { CrewAssignment } from '../../domain/fleet.ts';
import type { ComplianceSource } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { latestEvaluation, saveEvaluation } from '../../store/repositories/compliance-repo.ts';
import { listListableDocuments } from '../../store/repositories/documents-repo.ts';
import { crewAssignmentsOnFleet } from '../../store/repositories/fleet-repo.ts';
import type { CatalogueCache } from './catalogue-cache.ts';

/** What a compliance check needs besides the store. */
export interface ComplianceDeps {
  clock: Clock;
  catalogue: CatalogueCache;
  windowDays: number;
  deadlineMs: number;
  /** Operator switch: make the evaluator fail or stall, to exercise the fallback. */
  fault: 'none' | 'fail' | 'stall';
}

/** An evaluation with where it came from and when it was worked out. */
export interface ComplianceOutcome {
  crewUniqueId: string;
  evaluation: ComplianceEvaluation;
  asOf: string;
  source: ComplianceSource;
  /** The documents a live evaluation read (medical ones included); absent on the fallback. */
  documents?: readonly CrewDocument[];
}

/**
 * The assignment a check is about: the one on `vesselId` when given (crew_not_found when the crew
 * member is not on that vessel), else the most recent active one, else the most recent of any.
 */
export function chooseAssignment(assignments: readonly CrewAssignment[], crewUniqueId: string, vesselId?: string): CrewAssignment {
  if (vesselId !== undefined) {
    const on = assignments.find((a) => a.vessel.vesselId === vesselId);
    if (!on) throw new AppError('crew_not_found', `crew member ${crewUniqueId} is not on vessel ${vesselId} of your fleet`);
    return on;
  }
  const byRecency = [...assignments].sort((a, b) => b.assignment.asOf.localeCompare(a.assignment.asOf));
  const chosen = byRecency.find((a) => a.assignment.status === 'active') ?? byRecency[0];
  if (!chosen) throw new AppError('crew_not_found', `crew member ${crewUniqueId} has no assignment on your fleet`);
  return chosen;
}

async function evaluateLive(
  db: Db, deps: ComplianceDeps, crewUniqueId: string, a: CrewAssignment,
): Promise<{ evaluation: ComplianceEvaluation; documents: CrewDocument[] }> {
  if (deps.fault === 'fail') throw new Error('compliance evaluator disabled by SVC_COMPLIANCE_FAULT=fail');
  if (deps.fault === 'stall') await new Promise(() => {});
  const [catalogue, documents] = await Promise.all([deps.catalogue.get(db), listListableDocuments(db, [crewUniqueId], true)]);
  const evaluation = evaluateCompliance({
    role: a.assignment.role,
    positionName: a.assignment.positionName,
    vessel: a.vessel,
    catalogue,
    documents,
    today: utcDate(deps.clock()),
    windowDays: deps.windowDays,
  });
  return { evaluation, documents };
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`compliance evaluation exceeded its ${ms} ms deadline`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Evaluates live under the deadline and stores the result; when the evaluator fails or times out,
 * returns the latest stored result flagged as the fallback, or compliance_unavailable (503).
 */
export async function checkCompliance(db: Db, deps: ComplianceDeps, crewUniqueId: string, assignment: CrewAssignment): Promise<ComplianceOutcome> {
  const vesselId = assignment.vessel.vesselId;
  let live: { evaluation: ComplianceEvaluation; documents: CrewDocument[] };
  try {
    live = await withDeadline(evaluateLive(db, deps, crewUniqueId, assignment), deps.deadlineMs);
  } catch (cause) {
    const stored = await latestEvaluation(db, crewUniqueId, vesselId);
    if (stored) return { crewUniqueId, evaluation: stored.evaluation, asOf: stored.asOf, source: 'serviceCompliance_fallback' };
    throw new AppError('compliance_unavailable', 'the compliance evaluator is unavailable and no earlier result is stored; retry shortly', {
      headers: { 'Retry-After': '30' },
      cause,
    });
  }
  const asOf = deps.clock().toISOString();
  await saveEvaluation(db, crewUniqueId, vesselId, asOf, live.evaluation);
  return { crewUniqueId, evaluation: live.evaluation, asOf, source: 'live_evaluator', documents: live.documents };
}

/**
 * The operator's check (CLI): the crew member on any vessel of any fleet, `vesselId` choosing
 * among several; crew_not_found when they have no current assignment.
 */
export async function checkAnyAssignment(db: Db, deps: ComplianceDeps, crewUniqueId: string, vesselId?: string): Promise<ComplianceOutcome> {
  const assignments = await crewAssignmentsOnFleet(db, { kind: 'all' }, crewUniqueId);
  if (assignments.length === 0) throw new AppError('crew_not_found', `crew member ${crewUniqueId} has no current assignment`);
  return checkCompliance(db, deps, crewUniqueId, chooseAssignment(assignments, crewUniqueId, vesselId));
}
