import type { RequirementDefinition } from '../../domain/catalogue.ts';
import type { ComplianceEvaluation } from '../../domain/compliance/index.ts';
import type { Db } from '../database.ts';

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

/** Stores one result (see saveEvaluations). */
export async function saveEvaluation(
  db: Db,
  crewUniqueId: string,
  vesselId: string,
  asOf: string,
  evaluation: ComplianceEvaluation,
): Promise<void> {
  await saveEvaluations(db, [{ crewUniqueId, vesselId, asOf, evaluation }]);
}

/**
 * Stores several results at once (one statement per batch); a result older than the one already
 * stored for its crew member and vessel (another process's newer check) leaves it in place.
 */
export async function saveEvaluations(
  db: Db,
  results: readonly { crewUniqueId: string; vesselId: string; asOf: string; evaluation: ComplianceEvaluation }[],
): Promise<void> {
  for (let start = 0; start < results.length; start += 500) {
    await db
      .insertInto('compliance_results')
      .values(
        results.slice(start, start + 500).map((result) => ({
          crew_unique_id: result.crewUniqueId,
          vessel_id: result.vesselId,
          as_of: result.asOf,
          result: JSON.stringify(result.evaluation),
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['crew_unique_id', 'vessel_id'])
          .doUpdateSet((eb) => ({ as_of: eb.ref('excluded.as_of'), result: eb.ref('excluded.result') }))
          .whereRef('compliance_results.as_of', '<', 'excluded.as_of'),
      )
      .execute();
  }
}

export async function latestEvaluation(db: Db, crewUniqueId: string, vesselId: string): Promise<StoredEvaluation | undefined> {
  const row = await db
    .selectFrom('compliance_results')
    .select(['as_of', 'result'])
    .where('crew_unique_id', '=', crewUniqueId)
    .where('vessel_id', '=', vesselId)
    .executeTakeFirst();
  return row && { asOf: row.as_of, evaluation: JSON.parse(row.result) as ComplianceEvaluation };
}
