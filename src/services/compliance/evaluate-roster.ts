import type { RequirementDefinition } from '../../domain/catalogue.ts';
import { evaluateCompliance, type ComplianceEvaluation, type EvaluationDocument } from '../../domain/compliance/index.ts';
import { nextStatusChangeFrom } from '../../domain/compliance/status-calendar.ts';
import type { StatusChange } from '../../domain/compliance/status-forecast.ts';
import type { CrewAssignment } from '../../domain/fleet.ts';
import type { Db } from '../../store/database.ts';
import { listEvaluationDocuments } from '../../store/repositories/documents-repo.ts';

/** One assignment evaluated on a date, with the first change the calendar brings after it. */
export interface RosterEvaluation {
  assignment: CrewAssignment;
  evaluation: ComplianceEvaluation;
  nextChange: StatusChange | null;
}

/** How a roster is evaluated: the catalogue, the date and window, and what the reader may see. */
export interface RosterOptions {
  catalogue: readonly RequirementDefinition[];
  on: string;
  windowDays: number;
  /** Without it, medical rows are held at their status in the evaluation when the next change is worked out. */
  medicalVisible: boolean;
  /** YYYY-MM-DD medical rows are decided on when not `on` (medicalRowsOn: today, for a reader without crew:medical:read). */
  medicalOn?: string;
  nextChange: boolean;
}

/**
 * Evaluates each assignment as the single compliance check would on `options.on` (the same
 * evaluator and documents: every listable document, medical included), reading the documents of
 * all the assignments' crew in one query.
 */
export async function evaluateRoster(db: Db, assignments: readonly CrewAssignment[], options: RosterOptions): Promise<RosterEvaluation[]> {
  const crewIds = [...new Set(assignments.map((a) => a.assignment.crewUniqueId))];
  const byCrew = new Map<string, EvaluationDocument[]>();
  for (const doc of await listEvaluationDocuments(db, crewIds)) {
    let list = byCrew.get(doc.crewUniqueId);
    if (!list) byCrew.set(doc.crewUniqueId, (list = []));
    list.push(doc);
  }
  const hidden = options.medicalVisible ? undefined : (r: { group: string }) => r.group === 'medical';
  return assignments.map((assignment) => {
    const documents = byCrew.get(assignment.assignment.crewUniqueId) ?? [];
    const evaluation = evaluateCompliance({
      role: assignment.assignment.role,
      positionName: assignment.assignment.positionName,
      vessel: assignment.vessel,
      catalogue: options.catalogue,
      documents,
      today: options.on,
      windowDays: options.windowDays,
      ...(options.medicalOn !== undefined ? { medicalOn: options.medicalOn } : {}),
    });
    // From this one evaluation's dates (status-calendar.ts), not one evaluation per date that may change something.
    const nextChange = options.nextChange
      ? nextStatusChangeFrom(evaluation, options.on, { windowDays: options.windowDays, ...(hidden ? { hidden } : {}) })
      : null;
    return { assignment, evaluation, nextChange };
  });
}
