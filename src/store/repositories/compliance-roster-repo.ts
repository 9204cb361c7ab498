import type { CrewAssignment } from '../../domain/fleet.ts';
import type { FleetRef } from '../../domain/partner.ts';
import { ON_FLEET_STATUSES } from '../../domain/vocabulary.ts';
import type { Db } from '../database.ts';
import { assignmentsWithVessels, fleetVesselIds, toAssignment, toVessel } from './fleet-repo.ts';

/** Where a page of the compliance roster continues: strictly after this (vessel, crew) key. */
export interface RosterKey {
  vesselId: string;
  crewUniqueId: string;
}

/**
 * On-fleet assignments (with their vessels) of crew who give `partnerId` compliance consent,
 * ordered by vessel then crew, strictly after `after`, on `vesselId` only when given. Crew without
 * that consent are never read, so neither the items nor the page boundaries depend on them.
 */
export async function complianceRosterPage(
  db: Db,
  fleet: FleetRef,
  partnerId: string,
  page: { vesselId?: string; after: RosterKey | null; limit: number },
): Promise<CrewAssignment[]> {
  let query = assignmentsWithVessels(db)
    .where('assignments.vessel_id', 'in', fleetVesselIds(db, fleet))
    .where('assignments.status', 'in', ON_FLEET_STATUSES)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('consents')
          .select('consents.category')
          .where('consents.partner_id', '=', partnerId)
          .where('consents.category', '=', 'compliance')
          .whereRef('consents.crew_unique_id', '=', 'assignments.crew_unique_id'),
      ),
    );
  if (page.vesselId !== undefined) query = query.where('assignments.vessel_id', '=', page.vesselId);
  const after = page.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('assignments.vessel_id', '>', after.vesselId),
        eb.and([eb('assignments.vessel_id', '=', after.vesselId), eb('assignments.crew_unique_id', '>', after.crewUniqueId)]),
      ]),
    );
  }
  const rows = await query.orderBy('assignments.vessel_id').orderBy('assignments.crew_unique_id').limit(page.limit).execute();
  return rows.map((r) => ({ assignment: toAssignment(r), vessel: toVessel(r) }));
}

/** Whether the vessel is on the fleet. */
export async function isFleetVessel(db: Db, fleet: FleetRef, vesselId: string): Promise<boolean> {
  const row = await db
    .selectFrom('vessels')
    .select('vessel_id')
    .where('vessel_id', '=', vesselId)
    .where('vessel_id', 'in', fleetVesselIds(db, fleet))
    .executeTakeFirst();
  return row !== undefined;
}
