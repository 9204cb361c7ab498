/**
 * What the service will answer for each assignment of the demo data on the reference date: the
 * project's own evaluator (src/domain/compliance) over the documents as `svc fixtures load`
 * stores them and the repository reads them back.
 */
import type { Selectable } from 'kysely';
import { evaluateCompliance, type RequirementStatus, type VesselFacts } from '../../src/domain/compliance/index.ts';
import type { CrewDocument } from '../../src/domain/document.ts';
import type { ReadFixture } from '../../src/services/fixtures/read-fixtures.ts';
import type { DocumentFixture } from '../../src/services/fixtures/schema.ts';
import { documentRow } from '../../src/services/fixtures/to-rows.ts';
import type { TradingArea } from '../../src/domain/vocabulary.ts';
import type { DocumentsTable } from '../../src/store/database.ts';
import { toCrewDocument } from '../../src/store/repositories/documents-repo.ts';
import { REF } from './random.ts';
import { CATALOGUE } from './tables.ts';

/** The vessel fields of a fixture the evaluator needs. */
interface VesselFixture {
  vessel_id: string; vessel_type: string; gross_tonnage: number; propulsion_kw: number; flag_state: string;
  trading_area?: TradingArea;
}

/** The service's default compliance window (SVC_COMPLIANCE_WINDOW_DAYS). */
const WINDOW_DAYS = 90;
const NO_FILES: ReadFixture = { path: 'fixtures/demo.json', data: {}, files: new Map() };

/** A fixture document as the evaluator sees it after loading: defaults applied, classification completed. */
export function loadedDocument(d: DocumentFixture): CrewDocument {
  return toCrewDocument(documentRow(d, NO_FILES, `${REF}T00:00:00Z`) as Selectable<DocumentsTable>);
}

function vesselFacts(v: VesselFixture): VesselFacts {
  return {
    vesselId: v.vessel_id, vesselType: v.vessel_type, grossTonnage: v.gross_tonnage, propulsionKw: v.propulsion_kw,
    flagState: v.flag_state, tradingArea: v.trading_area ?? 'unlimited',
  };
}

export interface Expected { overall: string; rows: Record<string, RequirementStatus> }

export function expectedCompliance(role: string, vessel: VesselFixture, documents: readonly CrewDocument[]): Expected {
  const e = evaluateCompliance({
    role, positionName: null, vessel: vesselFacts(vessel), catalogue: CATALOGUE, documents, today: REF, windowDays: WINDOW_DAYS,
  });
  return { overall: e.overallStatus, rows: Object.fromEntries(e.requirements.map((r) => [r.key, r.status])) };
}
