import { stringify } from 'csv-stringify/sync';
import { AppError } from '../../domain/app-error.ts';
import type { OverallStatus, RequirementRow, RequirementStatus } from '../../domain/compliance/index.ts';
import type { CrewAssignment } from '../../domain/fleet.ts';
import { fleetOf } from '../../domain/partner.ts';
import type { Db } from '../../store/database.ts';
import { complianceRosterPage, isFleetVessel, type RosterKey } from '../../store/repositories/compliance-roster-repo.ts';
import type { CatalogueCache } from '../compliance/catalogue-cache.ts';
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
  columns: MatrixColumnWire[];
  rows: MatrixRowWire[];
}

// As in the single check (docs/decisions.md §6): a medical row keeps its status, not its expiry.
function cellOf(r: RequirementRow, medicalVisible: boolean): MatrixCellWire {
  return { status: r.status, expiry_date: !medicalVisible && r.group === 'medical' ? null : r.expiryDate };
}

const PAGE = 500;

/** Every on-fleet assignment on the vessel of crew who give the partner compliance consent. */
async function consentingCrewOn(db: Db, ctx: PartnerContext, vesselId: string): Promise<CrewAssignment[]> {
  const out: CrewAssignment[] = [];
  let after: RosterKey | null = null;
  for (;;) {
    const rows = await complianceRosterPage(db, fleetOf(ctx.partner, ctx.mode), ctx.partner.partnerId, { vesselId, after, limit: PAGE });
    out.push(...rows);
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return out;
    after = { vesselId, crewUniqueId: last.assignment.crewUniqueId };
  }
}

/**
 * `GET …/vessels/{vessel_id}/compliance-matrix`: a vessel of the fleet (else vessel_not_found, 404,
 * the same for another partner's vessel and one that does not exist), one row per consenting crew
 * member evaluated on `on` as the single check would, one column per requirement key of their
 * roles in the order first met.
 */
export async function complianceMatrix(
  db: Db, ctx: PartnerContext, deps: { catalogue: CatalogueCache; windowDays: number }, vesselId: string, on: string,
): Promise<ComplianceMatrixWire> {
  if (!await isFleetVessel(db, fleetOf(ctx.partner, ctx.mode), vesselId)) {
    throw new AppError('vessel_not_found', `no vessel ${vesselId} on your fleet`);
  }
  const medicalVisible = ctx.scopes.has('crew:medical:read');
  const evaluated = await evaluateRoster(db, await consentingCrewOn(db, ctx, vesselId), {
    catalogue: await deps.catalogue.get(db), on, windowDays: deps.windowDays, medicalVisible, nextChange: false,
  });
  const columns = new Map<string, MatrixColumnWire>();
  for (const { evaluation } of evaluated) {
    for (const r of evaluation.requirements) if (!columns.has(r.key)) columns.set(r.key, { key: r.key, title: r.title, group: r.group });
  }
  const keys = [...columns.keys()];
  return {
    vessel_id: vesselId,
    on,
    columns: [...columns.values()],
    rows: evaluated.map(({ assignment, evaluation }) => {
      const byKey = new Map(evaluation.requirements.map((r) => [r.key, r]));
      return {
        crew_unique_id: assignment.assignment.crewUniqueId,
        position_name: assignment.assignment.positionName,
        overall_status: evaluation.overallStatus,
        cells: keys.map((k) => {
          const r = byKey.get(k);
          return r ? cellOf(r, medicalVisible) : null;
        }),
      };
    }),
  };
}

/**
 * The matrix as CSV (RFC 4180: CRLF line ends, fields quoted when they need it): a header row,
 * then one row per crew member; each requirement has a `<key> status` and a `<key> expiry_date`
 * column, both empty where the role lacks it. Null is an empty field.
 */
export function matrixCsv(m: ComplianceMatrixWire): string {
  const header = ['crew_unique_id', 'position_name', 'overall_status', ...m.columns.flatMap((c) => [`${c.key} status`, `${c.key} expiry_date`])];
  const rows = m.rows.map((r) => [
    r.crew_unique_id, r.position_name ?? '', r.overall_status, ...r.cells.flatMap((c) => (c ? [c.status, c.expiry_date ?? ''] : ['', ''])),
  ]);
  return stringify([header, ...rows], { record_delimiter: 'windows' });
}
