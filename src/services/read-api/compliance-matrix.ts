import { stringify } from 'csv-stringify/sync';
import { AppError } from '../../domain/app-error.ts';
import type { ComplianceEvaluation, OverallStatus, RequirementRow, RequirementStatus } from '../../domain/compliance/index.ts';
import { medicalRowsOn } from '../../domain/compliance/on-date.ts';
import type { CrewAssignment } from '../../domain/fleet.ts';
import { fleetOf, type FleetRef } from '../../domain/partner.ts';
import type { Db } from '../../store/database.ts';
import { complianceRosterPage, isFleetVessel, type RosterKey } from '../../store/repositories/compliance-roster-repo.ts';
import type { Catalogue, CatalogueCache } from '../compliance/catalogue-cache.ts';
import { evaluateRoster } from '../compliance/evaluate-roster.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';

export interface MatrixColumnWire {
  key: string;
  title: string;
  group: string;
}

/** A requirement's status and expiry on the date; null where the crew member's role lacks it. */
export interface MatrixCellWire {
  status: RequirementStatus;
  expiry_date: string | null;
}

export interface MatrixRowWire {
  crew_unique_id: string;
  position_name: string | null;
  overall_status: OverallStatus;
  /** One per column, in column order. */
  cells: (MatrixCellWire | null)[];
}

export interface ComplianceMatrixWire {
  vessel_id: string;
  on: string;
  /** Present when the medical cells are shown as they stand on another date than `on`: today, for a key without crew:medical:read. */
  medical_on?: string;
  columns: MatrixColumnWire[];
  rows: MatrixRowWire[];
}

// As in the single check (docs/decisions.md §6): a medical row keeps its status (of today, on any `on`), not its expiry.
function cellOf(row: RequirementRow, medicalVisible: boolean): MatrixCellWire {
  return { status: row.status, expiry_date: !medicalVisible && row.group === 'medical' ? null : row.expiryDate };
}

const PAGE = 500;

/** Every on-fleet assignment on the vessel of crew who give the partner compliance consent. */
async function consentingCrewOn(db: Db, input: MatrixInput): Promise<CrewAssignment[]> {
  const out: CrewAssignment[] = [];
  const vesselId = input.vesselId;
  let after: RosterKey | null = null;
  for (;;) {
    const rows = await complianceRosterPage(db, input.fleet, input.partnerId, { vesselId, after, limit: PAGE });
    out.push(...rows);
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return out;
    after = { vesselId, crewUniqueId: last.assignment.crewUniqueId };
  }
}

/** What a matrix shows: whose fleet and consents, which vessel, on which date, evaluated how. */
export interface MatrixInput {
  fleet: FleetRef;
  partnerId: string;
  vesselId: string;
  on: string;
  /** YYYY-MM-DD medical cells are shown as they stand on, when not `on` (a key without crew:medical:read). */
  medicalOn: string | undefined;
  medicalVisible: boolean;
  windowDays: number;
  catalogue: Catalogue;
}

/** Builds a vessel's matrix: `storeMatrix` over the store, or the read cache's (src/services/read-cache/). */
export type ReadMatrix = (input: MatrixInput) => Promise<ComplianceMatrixWire>;

/** What the matrix needs besides the store. */
export interface MatrixDeps {
  catalogue: CatalogueCache;
  windowDays: number;
  /** YYYY-MM-DD of the call: without crew:medical:read, medical cells are shown as they stand that day, whatever `on`. */
  today: string;
  matrix: ReadMatrix;
}

/**
 * `GET …/vessels/{vessel_id}/compliance-matrix`: a vessel of the fleet (else vessel_not_found, 404,
 * the same for another partner's vessel and one that does not exist), one row per consenting crew
 * member evaluated on `on` as the single check would (without crew:medical:read, medical cells as
 * they stand today), one column per requirement key of their roles in the order first met.
 */
export async function complianceMatrix(
  db: Db,
  ctx: PartnerContext,
  deps: MatrixDeps,
  vesselId: string,
  on: string,
): Promise<ComplianceMatrixWire> {
  const medicalVisible = ctx.scopes.has('crew:medical:read');
  return deps.matrix({
    fleet: fleetOf(ctx.partner, ctx.mode),
    partnerId: ctx.partner.partnerId,
    vesselId,
    on,
    medicalOn: medicalRowsOn(on, deps.today, medicalVisible),
    medicalVisible,
    windowDays: deps.windowDays,
    catalogue: await deps.catalogue.get(db),
  });
}

/** The store's read: the matrix built afresh. */
export function storeMatrix(db: Db): ReadMatrix {
  return async (input) => (await buildMatrix(db, input, null)).matrix;
}

/** A crew member's row as evaluated for a matrix: the assignment it was evaluated for, and the evaluation. */
export interface EvaluatedRow {
  assignment: CrewAssignment;
  evaluation: ComplianceEvaluation;
}

/**
 * A matrix built earlier for the same input, and what changed since: the crew members whose
 * documents changed (`dirty`) and whether the roster and the vessel's fleet are as they were.
 */
export interface MatrixPrior {
  rows: ReadonlyMap<string, EvaluatedRow>;
  matrix: ComplianceMatrixWire;
  dirty: ReadonlySet<string | null>;
  sameRoster: boolean;
}

/** The same assignment for the evaluation: role, position and every fact of the vessel. */
function sameFor(a: CrewAssignment, b: CrewAssignment): boolean {
  return (
    a === b ||
    (a.assignment.role === b.assignment.role &&
      a.assignment.positionName === b.assignment.positionName &&
      JSON.stringify(a.vessel) === JSON.stringify(b.vessel))
  );
}

/**
 * The matrix of `input`; with `prior`, the roster is read again unless `sameRoster`, and only crew
 * members who are dirty, whose assignment or vessel differs, or who are new, are read and
 * evaluated: the others keep their evaluation (and, under the same columns, their row).
 */
export async function buildMatrix(
  db: Db,
  input: MatrixInput,
  prior: MatrixPrior | null,
): Promise<{ matrix: ComplianceMatrixWire; rows: Map<string, EvaluatedRow> }> {
  const { vesselId, on, medicalVisible, medicalOn } = input;
  // The kept matrix was built on a vessel of the fleet, with this roster, when nothing since can have changed either.
  if (!prior?.sameRoster && !(await isFleetVessel(db, input.fleet, vesselId))) {
    throw new AppError('vessel_not_found', `no vessel ${vesselId} on your fleet`);
  }
  const roster = prior?.sameRoster ? [...prior.rows.values()].map((r) => r.assignment) : await consentingCrewOn(db, input);
  const kept = roster.map((assignment): EvaluatedRow | undefined => {
    const row = prior?.rows.get(assignment.assignment.crewUniqueId);
    return row && !prior!.dirty.has(assignment.assignment.crewUniqueId) && sameFor(row.assignment, assignment)
      ? { assignment, evaluation: row.evaluation }
      : undefined;
  });
  const fresh = await evaluateRoster(
    db,
    roster.filter((_, i) => kept[i] === undefined),
    {
      catalogue: input.catalogue.definitions,
      on,
      windowDays: input.windowDays,
      medicalVisible,
      nextChange: false,
      ...(medicalOn !== undefined ? { medicalOn } : {}),
    },
  );
  const byCrew = new Map(fresh.map((r) => [r.assignment.assignment.crewUniqueId, r]));
  const evaluated = roster.map((a, i) => kept[i] ?? byCrew.get(a.assignment.crewUniqueId)!);
  // In roster order: a later call that keeps the roster reads it back from here.
  const rows = new Map<string, EvaluatedRow>(evaluated.map((r) => [r.assignment.assignment.crewUniqueId, r]));
  const columns = new Map<string, MatrixColumnWire>();
  for (const { evaluation } of evaluated) {
    for (const r of evaluation.requirements) if (!columns.has(r.key)) columns.set(r.key, { key: r.key, title: r.title, group: r.group });
  }
  const keys = [...columns.keys()];
  // A kept evaluation under the same columns gives the same row: the one already built.
  const sameColumns = prior !== null && prior.matrix.columns.map((c) => c.key).join('\n') === keys.join('\n');
  const priorRows = sameColumns ? new Map(prior.matrix.rows.map((r) => [r.crew_unique_id, r])) : null;
  const matrix: ComplianceMatrixWire = {
    vessel_id: vesselId,
    on,
    ...(medicalOn !== undefined ? { medical_on: medicalOn } : {}),
    columns: [...columns.values()],
    rows: evaluated.map(({ assignment, evaluation }, index) => {
      const reused = kept[index] && priorRows?.get(assignment.assignment.crewUniqueId);
      if (reused) return reused;
      const byKey = new Map(evaluation.requirements.map((r) => [r.key, r]));
      return {
        crew_unique_id: assignment.assignment.crewUniqueId,
        position_name: assignment.assignment.positionName,
        overall_status: evaluation.overallStatus,
        cells: keys.map((key) => {
          const row = byKey.get(key);
          return row ? cellOf(row, medicalVisible) : null;
        }),
      };
    }),
  };
  return { matrix, rows };
}

/**
 * The matrix as CSV (RFC 4180: CRLF line ends, fields quoted when they need it): a header row,
 * then one row per crew member; each requirement has a `<key> status` and a `<key> expiry_date`
 * column, both empty where the role lacks it. Null is an empty field.
 *
 * Position names (the employer's) and requirement keys (the catalogue's) are written for spreadsheets to show, never
 * run, with csv-stringify's own options: `escape_formulas` puts a `'` before a field that starts
 * with `=`, `+`, `-`, `@`, a tab or a CR (or a full-width `=+-@`), as OWASP advises against CSV
 * injection; `quote_record_delimiter` quotes a field holding a CR or LF, which the library leaves
 * bare once a record delimiter is given, and which a spreadsheet would read as a row break.
 */
export function matrixCsv(matrix: ComplianceMatrixWire): string {
  const header = [
    'crew_unique_id',
    'position_name',
    'overall_status',
    ...matrix.columns.flatMap((c) => [`${c.key} status`, `${c.key} expiry_date`]),
  ];
  const rows = matrix.rows.map((row) => [
    row.crew_unique_id,
    row.position_name ?? '',
    row.overall_status,
    ...row.cells.flatMap((c) => (c ? [c.status, c.expiry_date ?? ''] : ['', ''])),
  ]);
  return stringify([header, ...rows], { record_delimiter: 'windows', escape_formulas: true, quote_record_delimiter: true });
}
