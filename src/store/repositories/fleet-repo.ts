import type { Selectable } from 'kysely';
import { ON_FLEET_STATUSES } from '../../domain/vocabulary.ts';
import type { AssignmentsTable, Db, VesselsTable } from '../database.ts';

/** Which vessels form a partner's fleet in one mode (docs/decisions.md §2 live/test, docs/contract.md "What the service offers"). */
export type FleetRef =
  | { kind: 'employer'; employerId: string; isTest: boolean }
  | { kind: 'contract'; partnerId: string; isTest: boolean }
  | { kind: 'none' }
  /** Every vessel of both modes: the operator's view (CLI), never a partner's. */
  | { kind: 'all' };

export type VesselRow = Selectable<VesselsTable>;

/** A subquery of the fleet's vessel ids, for `where vessel_id in (…)`. */
export function fleetVesselIds(db: Db, fleet: FleetRef) {
  if (fleet.kind === 'employer') {
    return db.selectFrom('vessels').select('vessels.vessel_id')
      .where('vessels.employer_id', '=', fleet.employerId).where('vessels.is_test', '=', fleet.isTest ? 1 : 0);
  }
  if (fleet.kind === 'contract') {
    return db.selectFrom('contract_vessels').innerJoin('vessels', 'vessels.vessel_id', 'contract_vessels.vessel_id')
      .select('vessels.vessel_id')
      .where('contract_vessels.partner_id', '=', fleet.partnerId).where('vessels.is_test', '=', fleet.isTest ? 1 : 0);
  }
  if (fleet.kind === 'all') return db.selectFrom('vessels').select('vessels.vessel_id');
  // No fleet: a subquery that matches nothing (vessel_id is a primary key, never null).
  return db.selectFrom('vessels').select('vessels.vessel_id').where('vessels.vessel_id', 'is', null);
}

export async function listFleetVessels(db: Db, fleet: FleetRef): Promise<VesselRow[]> {
  return db.selectFrom('vessels').selectAll()
    .where('vessel_id', 'in', fleetVesselIds(db, fleet)).orderBy('vessel_id').execute();
}

/** One roster row: an on-fleet assignment with its crew member's name and statuses, and its vessel. */
export interface FleetRow {
  crew_unique_id: string;
  vessel_id: string;
  as_of: string;
  name: string;
  vessel_name: string;
  imo: string | null;
  role: string;
  status: AssignmentsTable['status'];
  verification_status: string;
  background_check_status: string;
}

/** Keyset page of the roster, ordered by (vessel_id, crew_unique_id), strictly after `after`. */
export async function fleetPage(
  db: Db, fleet: FleetRef, after: { vesselId: string; crewUniqueId: string } | null, limit: number,
): Promise<FleetRow[]> {
  let q = db.selectFrom('assignments')
    .innerJoin('crew', 'crew.crew_unique_id', 'assignments.crew_unique_id')
    .innerJoin('vessels', 'vessels.vessel_id', 'assignments.vessel_id')
    .select([
      'assignments.crew_unique_id', 'assignments.vessel_id', 'assignments.as_of', 'crew.name', 'vessels.vessel_name',
      'vessels.imo', 'assignments.role', 'assignments.status', 'crew.verification_status', 'crew.background_check_status',
    ])
    .where('assignments.vessel_id', 'in', fleetVesselIds(db, fleet))
    .where('assignments.status', 'in', ON_FLEET_STATUSES);
  if (after) {
    q = q.where((eb) => eb.or([
      eb('assignments.vessel_id', '>', after.vesselId),
      eb.and([eb('assignments.vessel_id', '=', after.vesselId), eb('assignments.crew_unique_id', '>', after.crewUniqueId)]),
    ]));
  }
  return q.orderBy('assignments.vessel_id').orderBy('assignments.crew_unique_id').limit(limit).execute() as Promise<FleetRow[]>;
}

/** A crew member's on-fleet assignments with their vessels, newest first. Empty: not on the fleet. */
export interface CrewAssignment {
  assignment: Selectable<AssignmentsTable>;
  vessel: VesselRow;
}

export async function crewAssignmentsOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string): Promise<CrewAssignment[]> {
  const rows = await db.selectFrom('assignments')
    .innerJoin('vessels', 'vessels.vessel_id', 'assignments.vessel_id')
    .selectAll('vessels')
    .select([
      'assignments.assignment_id', 'assignments.crew_unique_id', 'assignments.role', 'assignments.position_name',
      'assignments.status', 'assignments.as_of',
    ])
    .where('assignments.crew_unique_id', '=', crewUniqueId)
    .where('assignments.vessel_id', 'in', fleetVesselIds(db, fleet))
    .where('assignments.status', 'in', ON_FLEET_STATUSES)
    .orderBy('assignments.as_of', 'desc').orderBy('assignments.vessel_id')
    .execute();
  return rows.map((r) => ({
    assignment: {
      assignment_id: r.assignment_id, crew_unique_id: r.crew_unique_id, vessel_id: r.vessel_id, role: r.role,
      position_name: r.position_name, status: r.status, as_of: r.as_of,
    },
    vessel: {
      vessel_id: r.vessel_id, employer_id: r.employer_id, vessel_name: r.vessel_name, imo: r.imo, mmsi: r.mmsi,
      flag_state: r.flag_state, vessel_type: r.vessel_type, gross_tonnage: r.gross_tonnage, propulsion_kw: r.propulsion_kw,
      trading_area: r.trading_area, is_test: r.is_test,
    },
  }));
}

/** The crew id whose normalized e-mail matches, among crew on the fleet. */
export async function findFleetCrewByEmail(db: Db, fleet: FleetRef, emailNormalized: string): Promise<string | undefined> {
  const row = await db.selectFrom('crew')
    .innerJoin('assignments', 'assignments.crew_unique_id', 'crew.crew_unique_id')
    .select('crew.crew_unique_id')
    .where('crew.email_normalized', '=', emailNormalized)
    .where('assignments.vessel_id', 'in', fleetVesselIds(db, fleet))
    .where('assignments.status', 'in', ON_FLEET_STATUSES)
    .orderBy('crew.crew_unique_id')
    .executeTakeFirst();
  return row?.crew_unique_id;
}

/** Distinct crew ids on any of `vesselIds` (on-fleet statuses), a keyset page at a time. */
export async function crewPageOnVessels(db: Db, vesselIds: readonly string[], after: string | null, limit: number): Promise<string[]> {
  if (vesselIds.length === 0) return [];
  let q = db.selectFrom('assignments').select('crew_unique_id').distinct()
    .where('vessel_id', 'in', vesselIds).where('status', 'in', ON_FLEET_STATUSES);
  if (after !== null) q = q.where('crew_unique_id', '>', after);
  return (await q.orderBy('crew_unique_id').limit(limit).execute()).map((r) => r.crew_unique_id);
}

/** The on-fleet assignments of several crew members on any of `vesselIds`. */
export async function assignmentsOnVessels(db: Db, vesselIds: readonly string[], crewIds: readonly string[]): Promise<Selectable<AssignmentsTable>[]> {
  if (crewIds.length === 0 || vesselIds.length === 0) return [];
  return db.selectFrom('assignments').selectAll()
    .where('crew_unique_id', 'in', crewIds)
    .where('vessel_id', 'in', vesselIds).where('status', 'in', ON_FLEET_STATUSES)
    .orderBy('crew_unique_id').orderBy('vessel_id').execute();
}

/** Crew with any assignment on the vessels, whatever its status: who a vessel's change can concern. */
export async function crewAssignedToVessels(db: Db, vesselIds: readonly string[]): Promise<string[]> {
  if (vesselIds.length === 0) return [];
  const rows = await db.selectFrom('assignments').select('crew_unique_id').distinct().where('vessel_id', 'in', vesselIds).execute();
  return rows.map((r) => r.crew_unique_id);
}
