import { sql } from 'kysely';
import type { CrewStanding } from '../../domain/event-access.ts';
import type { FleetRef } from '../../domain/partner.ts';
import { ON_FLEET_STATUSES, type ConsentCategory } from '../../domain/vocabulary.ts';
import type { Db } from '../database.ts';
import { fleetVesselIds } from './fleet-repo.ts';

/** Marks a fleet-membership row among the consent rows of crewStandings (no consent is named so). */
const ON_FLEET = '#fleet';

/**
 * Where each of `crewIds` stands with a partner now (on its fleet, consents given), in one
 * statement: the consents rows and the on-fleet assignments, united. Crew absent from the map
 * are neither on the fleet nor give any consent.
 */
export async function crewStandings(
  db: Db,
  fleet: FleetRef,
  partnerId: string,
  crewIds: readonly string[],
): Promise<Map<string, CrewStanding>> {
  const out = new Map<string, { onFleet: boolean; consents: Set<ConsentCategory> }>();
  const ids = [...new Set(crewIds)];
  for (let start = 0; start < ids.length; start += 1000) {
    const chunk = ids.slice(start, start + 1000);
    const rows = await db
      .selectFrom('consents')
      .select(['crew_unique_id', (eb) => eb.ref('category').$castTo<string>().as('what')])
      .where('partner_id', '=', partnerId)
      .where('crew_unique_id', 'in', chunk)
      .unionAll(
        db
          .selectFrom('assignments')
          .select(['crew_unique_id', sql.lit(ON_FLEET).$castTo<string>().as('what')])
          .where('crew_unique_id', 'in', chunk)
          .where('status', 'in', ON_FLEET_STATUSES)
          .where('vessel_id', 'in', fleetVesselIds(db, fleet)),
      )
      .execute();
    for (const row of rows) {
      const standing = out.get(row.crew_unique_id) ?? { onFleet: false, consents: new Set<ConsentCategory>() };
      if (row.what === ON_FLEET) standing.onFleet = true;
      else standing.consents.add(row.what as ConsentCategory);
      out.set(row.crew_unique_id, standing);
    }
  }
  return out;
}
