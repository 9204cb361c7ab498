import type { RequirementDefinition } from '../../domain/catalogue.ts';
import type { ComplianceEvaluation } from '../../domain/compliance/index.ts';
import type { Db } from '../database.ts';
import { upsertRows } from './upsert.ts';

/** The requirement catalogue in its stored order. */
export async function readCatalogue(db: Db): Promise<RequirementDefinition[]> {
  const rows = await db.selectFrom('requirement_catalogue').select('definition').orderBy('position').orderBy('requirement_key').execute();
  return rows.map((r) => JSON.parse(r.definition) as RequirementDefinition);
}

/** A stored evaluation: the latest per crew member and vessel. */
export interface StoredEvaluation {
  asOf: string;
  evaluation: ComplianceEvaluation;
}

export async function saveEvaluation(db: Db, crewUniqueId: string, vesselId: string, asOf: string, evaluation: ComplianceEvaluation): Promise<void> {
  await upsertRows(db, 'compliance_results', [{
    crew_unique_id: crewUniqueId, vessel_id: vesselId, as_of: asOf, result: JSON.stringify(evaluation),
  }], ['crew_unique_id', 'vessel_id']);
}

export async function latestEvaluation(db: Db, crewUniqueId: string, vesselId: string): Promise<StoredEvaluation | undefined> {
  const row = await db.selectFrom('compliance_results').select(['as_of', 'result'])
    .where('crew_unique_id', '=', crewUniqueId).where('vessel_id', '=', vesselId).executeTakeFirst();
  return row && { asOf: row.as_of, evaluation: JSON.parse(row.result) as ComplianceEvaluation };
}
