/**
 * What the service will answer for each assignment of the demo data on the reference date: the
 * project's own evaluator (src/domain/compliance) over the vessels and documents as
 * `svc fixtures load` stores them and the repositories read them back.
 */
import type { Selectable } from 'kysely';
import { evaluateCompliance, type RequirementStatus } from '../../src/domain/compliance/index.ts';
import type { CrewDocument } from '../../src/domain/document.ts';
import type { Vessel } from '../../src/domain/fleet.ts';
import type { DocumentFixture, FixtureFile } from '../../src/services/fixtures/schema.ts';
import { documentRow, vesselRow } from '../../src/services/fixtures/to-rows.ts';
import type { DocumentsTable, VesselsTable } from '../../src/store/database.ts';
import { toCrewDocument } from '../../src/store/repositories/documents-repo.ts';
import { toVessel } from '../../src/store/repositories/fleet-repo.ts';
import { REF } from './random.ts';
import { CATALOGUE } from './tables.ts';
import type { VesselOut } from './types.ts';

/** The service's default compliance window (SVC_COMPLIANCE_WINDOW_DAYS). */
const WINDOW_DAYS = 90;

/** A fixture document as the evaluator sees it after loading: defaults applied, classification completed. */
export function loadedDocument(d: DocumentFixture): CrewDocument {
  return toCrewDocument(documentRow(d, null, `${REF}T00:00:00Z`) as Selectable<DocumentsTable>);
}

/** A generated vessel as the evaluator sees it after loading (checkDemo holds it to the fixture schema). */
export function loadedVessel(v: VesselOut): Vessel {
  return toVessel(vesselRow(v as NonNullable<FixtureFile['vessels']>[number]) as Selectable<VesselsTable>);
}

export interface Expected {
  overall: string;
  rows: Record<string, RequirementStatus>;
}

export function expectedCompliance(role: string, vessel: Vessel, documents: readonly CrewDocument[]): Expected {
  const e = evaluateCompliance({
    role,
    positionName: null,
    vessel,
    catalogue: CATALOGUE,
    documents,
    today: REF,
    windowDays: WINDOW_DAYS,
  });
  return { overall: e.overallStatus, rows: Object.fromEntries(e.requirements.map((r) => [r.key, r.status])) };
}
