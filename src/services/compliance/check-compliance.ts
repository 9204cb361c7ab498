import { AppError } from '../../domain/app-error.ts';
import { utcDate, type Clock } from '../../domain/clock.ts';
import { evaluateCompliance, type ComplianceEvaluation } from '../../domain/compliance/index.ts';
import { medicalRowsOn } from '../../domain/compliance/on-date.ts';
import type { CrewAssignment } from '../../domain/fleet.ts';
import type { ComplianceSource } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { crewEvaluationDocuments, type EvaluationDocumentWithFile } from '../../store/repositories/documents-repo.ts';
import { crewExists } from '../../store/repositories/crew-repo.ts';
import { crewAssignmentsOnFleet } from '../../store/repositories/crew-on-fleet-repo.ts';
import type { Catalogue, CatalogueCache } from './catalogue-cache.ts';
import { storedResults, type ComplianceResults } from './stored-results.ts';

/** What a compliance check needs besides the store. */
export interface ComplianceDeps {
  clock: Clock;
  catalogue: CatalogueCache;
  windowDays: number;
  deadlineMs: number;
  /** Operator switch: make the evaluator fail or stall, to exercise the fallback. */
  fault: 'none' | 'fail' | 'stall';
  /** Where results are kept for the fallback; by default written to the store before the check returns. */
  results?: ComplianceResults;
  /** Reads the documents and evaluates: `evaluateLive` over the store, or the read cache's (src/services/read-cache/). */
  evaluate: (input: EvaluationInput) => Promise<LiveEvaluation>;
}

/** Everything a live evaluation depends on besides the documents of the store. */
export interface EvaluationInput {
  crewUniqueId: string;
  assignment: CrewAssignment;
  /** YYYY-MM-DD evaluated. */
  on: string;
  /** YYYY-MM-DD medical rows are decided on, when not `on` (EvaluationInput of the domain). */
  medicalOn: string | undefined;
  windowDays: number;
  catalogue: Catalogue;
}

/** A live evaluation and the documents it read (medical ones included). */
export interface LiveEvaluation {
  evaluation: ComplianceEvaluation;
  documents: EvaluationDocumentWithFile[];
  /** Of the documents satisfying a requirement, those with a stored file: worked out once, reused with the evaluation. */
  withFiles: ReadonlySet<string>;
}

/** An evaluation with where it came from and when it was worked out. */
export interface ComplianceOutcome {
  crewUniqueId: string;
  evaluation: ComplianceEvaluation;
  /** YYYY-MM-DD evaluated. */
  on: string;
  asOf: string;
  source: ComplianceSource;
  /** The documents a live evaluation read (medical ones included); absent on the fallback. */
  documents?: readonly EvaluationDocumentWithFile[];
  /** A live evaluation's LiveEvaluation.withFiles; absent on the fallback. */
  withFiles?: ReadonlySet<string>;
  /** YYYY-MM-DD medical rows were decided on, when not the date evaluated (a reader without crew:medical:read). */
  medicalOn?: string;
}

/** The documents that satisfy a requirement of `evaluation`. */
export function satisfyingDocumentIds(evaluation: ComplianceEvaluation): Set<string> {
  return new Set(evaluation.requirements.flatMap((r) => r.satisfiedBy.map((d) => d.documentId)));
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
  // The newest by `asOf` (ISO 8601 UTC, which orders as text), the first of equals.
  let newest: CrewAssignment | undefined;
  let newestActive: CrewAssignment | undefined;
  for (const a of assignments) {
    if (!newest || a.assignment.asOf > newest.assignment.asOf) newest = a;
    if (a.assignment.status === 'active' && (!newestActive || a.assignment.asOf > newestActive.assignment.asOf)) newestActive = a;
  }
  const chosen = newestActive ?? newest;
  if (!chosen) throw new AppError('crew_not_found', `crew member ${crewUniqueId} has no assignment on your fleet`);
  return chosen;
}

/** Evaluates the crew member's documents (medical ones included, as crewEvaluationDocuments reads them). */
export function evaluateDocuments(input: EvaluationInput, documents: EvaluationDocumentWithFile[]): LiveEvaluation {
  const evaluation = evaluateCompliance({
    role: input.assignment.assignment.role,
    positionName: input.assignment.assignment.positionName,
    vessel: input.assignment.vessel,
    catalogue: input.catalogue.definitions,
    documents,
    today: input.on,
    windowDays: input.windowDays,
    ...(input.medicalOn !== undefined ? { medicalOn: input.medicalOn } : {}),
  });
  const satisfying = satisfyingDocumentIds(evaluation);
  const withFiles = new Set(documents.filter((d) => d.fileId !== null && satisfying.has(d.documentId)).map((d) => d.documentId));
  return { evaluation, documents, withFiles };
}

/** Reads the crew member's documents (medical ones included) and evaluates them. */
export async function evaluateLive(db: Db, input: EvaluationInput): Promise<LiveEvaluation> {
  return evaluateDocuments(input, await crewEvaluationDocuments(db, input.crewUniqueId));
}

/** evaluateDocuments on `documents` when the caller read them with its own read, else evaluateLive. */
export async function evaluateRead(db: Db, input: EvaluationInput, documents?: EvaluationDocumentWithFile[]): Promise<LiveEvaluation> {
  return documents ? evaluateDocuments(input, documents) : evaluateLive(db, input);
}

/** `deps.evaluate` on the check's input, unless the operator's fault switch says otherwise. */
async function evaluateOrFault(db: Db, deps: ComplianceDeps, input: Omit<EvaluationInput, 'catalogue'>): Promise<LiveEvaluation> {
  if (deps.fault === 'fail') throw new Error('compliance evaluator disabled by SVC_COMPLIANCE_FAULT=fail');
  if (deps.fault === 'stall') await new Promise(() => {});
  return deps.evaluate({ ...input, catalogue: await deps.catalogue.get(db) });
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`compliance evaluation exceeded its ${ms} ms deadline`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Evaluates live under the deadline, on `on` (YYYY-MM-DD) or today, and stores a result of today
 * (through `deps.results`); when the evaluator fails or times out, returns the latest stored result
 * flagged as the fallback, or compliance_unavailable (503). A stored result stands for today only:
 * a check on another date has no fallback, and its result is not stored. Without `medicalVisible`
 * (the reader lacks crew:medical:read), medical rows are decided on today whatever `on`
 * (docs/decisions.md §6), and the outcome's `medicalOn` says so when that is not `on`.
 */
export async function checkCompliance(
  db: Db,
  deps: ComplianceDeps,
  crewUniqueId: string,
  assignment: CrewAssignment,
  on?: string,
  medicalVisible = true,
): Promise<ComplianceOutcome> {
  const vesselId = assignment.vessel.vesselId;
  const results = deps.results ?? storedResults(db);
  // One reading of the clock: the day checked and the answer's time.
  const now = deps.clock();
  const today = utcDate(now);
  const asOf = now.toISOString();
  const isToday = on === undefined || on === today;
  const dates = { on: on ?? today, medicalOn: medicalRowsOn(on ?? today, today, medicalVisible) };
  let live: LiveEvaluation;
  try {
    live = await withDeadline(
      evaluateOrFault(db, deps, { crewUniqueId, assignment, ...dates, windowDays: deps.windowDays }),
      deps.deadlineMs,
    );
  } catch (cause) {
    const stored = isToday ? await results.latest(crewUniqueId, vesselId) : undefined;
    // A fallback is an evaluation of the day it was stored on.
    if (stored) {
      return {
        crewUniqueId,
        evaluation: stored.evaluation,
        on: stored.asOf.slice(0, 10),
        asOf: stored.asOf,
        source: 'serviceCompliance_fallback',
      };
    }
    throw new AppError('compliance_unavailable', 'the compliance evaluator is unavailable and no earlier result is stored; retry shortly', {
      headers: { 'Retry-After': '30' },
      cause,
    });
  }
  if (isToday) await results.save(crewUniqueId, vesselId, asOf, live.evaluation);
  return {
    crewUniqueId,
    evaluation: live.evaluation,
    on: dates.on,
    asOf,
    source: 'live_evaluator',
    documents: live.documents,
    withFiles: live.withFiles,
    ...(dates.medicalOn !== undefined ? { medicalOn: dates.medicalOn } : {}),
  };
}

/**
 * The operator's check (CLI): the crew member on any vessel of any fleet, `vesselId` choosing
 * among several; crew_not_found when no such crew member exists or they have no current assignment.
 */
export async function checkAnyAssignment(
  db: Db,
  deps: ComplianceDeps,
  crewUniqueId: string,
  vesselId?: string,
): Promise<ComplianceOutcome> {
  const assignments = await crewAssignmentsOnFleet(db, { kind: 'all' }, crewUniqueId);
  if (assignments.length === 0) {
    // Only on the way out: say which of the two it is, a typo or a crew member signed off everywhere.
    if (!(await crewExists(db, crewUniqueId))) throw new AppError('crew_not_found', `no crew member with id "${crewUniqueId}"`);
    throw new AppError('crew_not_found', `crew member ${crewUniqueId} has no current assignment`);
  }
  return checkCompliance(db, deps, crewUniqueId, chooseAssignment(assignments, crewUniqueId, vesselId));
}
