import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Assignment, RosterEntry, Vessel } from '../../domain/fleet.ts';
import type { FleetRef } from '../../domain/partner.ts';
import { ON_FLEET_STATUSES } from '../../domain/vocabulary.ts';
import type { AssignmentsTable, Database, Db, VesselsTable } from '../database.ts';
import { idSet } from './id-set.ts';

export function toVessel(row: Selectable<VesselsTable>): Vessel {
  return {
    vesselId: row.vessel_id,
    employerId: row.employer_id,
    vesselName: row.vessel_name,
    imo: row.imo,
    mmsi: row.mmsi,
    flagState: row.flag_state,
    vesselType: row.vessel_type,
    grossTonnage: row.gross_tonnage,
    propulsionKw: row.propulsion_kw,
    tradingArea: row.trading_area,
    isTest: row.is_test === 1,
  };
}

export function toAssignment(row: Selectable<AssignmentsTable>): Assignment {
  return {
    assignmentId: row.assignment_id,
    crewUniqueId: row.crew_unique_id,
    vesselId: row.vessel_id,
    role: row.role,
    positionName: row.position_name,
    status: row.status,
    asOf: row.as_of,
  };
}

/** Assignments joined with their vessels, selecting what a CrewAssignment is made of (toAssignment, toVessel). */
export function assignmentsWithVessels(db: Db) {
  return db
    .selectFrom('assignments')
    .innerJoin('vessels', 'vessels.vessel_id', 'assignments.vessel_id')
    .selectAll('vessels')
    .select([
      'assignments.assignment_id',
      'assignments.crew_unique_id',
      'assignments.role',
      'assignments.position_name',
      'assignments.status',
      'assignments.as_of',
    ]);
}

/** A subquery of the fleet's vessel ids, for `where vessel_id in (…)`. */
export function fleetVesselIds(db: Db, fleet: FleetRef) {
  if (fleet.kind === 'employer') {
    return db
      .selectFrom('vessels')
      .select('vessels.vessel_id')
      .where('vessels.employer_id', '=', fleet.employerId)
      .where('vessels.is_test', '=', fleet.isTest ? 1 : 0);
  }
  if (fleet.kind === 'contract') {
    return db
      .selectFrom('contract_vessels')
      .innerJoin('vessels', 'vessels.vessel_id', 'contract_vessels.vessel_id')
      .select('vessels.vessel_id')
      .where('contract_vessels.partner_id', '=', fleet.partnerId)
      .where('vessels.is_test', '=', fleet.isTest ? 1 : 0);
  }
  if (fleet.kind === 'all') return db.selectFrom('vessels').select('vessels.vessel_id');
  // No fleet: a subquery that matches nothing (vessel_id is a primary key, never null).
  return db.selectFrom('vessels').select('vessels.vessel_id').where('vessels.vessel_id', 'is', null);
}

export async function listFleetVessels(db: Db, fleet: FleetRef): Promise<Vessel[]> {
  const rows = await db
    .selectFrom('vessels')
    .selectAll()
    .where('vessel_id', 'in', fleetVesselIds(db, fleet))
    .orderBy('vessel_id')
    .execute();
  return rows.map(toVessel);
}

/** The columns of a roster row, as fleetPageQuery selects them. */
interface RosterRow {
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

export function toRosterEntry(row: RosterRow): RosterEntry {
  return {
    crewUniqueId: row.crew_unique_id,
    vesselId: row.vessel_id,
    asOf: row.as_of,
    name: row.name,
    vesselName: row.vessel_name,
    imo: row.imo,
    role: row.role,
    status: row.status,
    verificationStatus: row.verification_status,
    backgroundCheckStatus: row.background_check_status,
  };
}

function fleetPageQuery(db: Db, fleet: FleetRef, after: { vesselId: string; crewUniqueId: string } | null, limit: number) {
  let query = db
    .selectFrom('assignments')
    .innerJoin('crew', 'crew.crew_unique_id', 'assignments.crew_unique_id')
    .innerJoin('vessels', 'vessels.vessel_id', 'assignments.vessel_id')
    .select([
      'assignments.crew_unique_id',
      'assignments.vessel_id',
      'assignments.as_of',
      'crew.name',
      'vessels.vessel_name',
      'vessels.imo',
      'assignments.role',
      'assignments.status',
      'crew.verification_status',
      'crew.background_check_status',
    ])
    .where('assignments.vessel_id', 'in', fleetVesselIds(db, fleet))
    .where('assignments.status', 'in', ON_FLEET_STATUSES);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('assignments.vessel_id', '>', after.vesselId),
        eb.and([eb('assignments.vessel_id', '=', after.vesselId), eb('assignments.crew_unique_id', '>', after.crewUniqueId)]),
      ]),
    );
  }
  return query.orderBy('assignments.vessel_id').orderBy('assignments.crew_unique_id').limit(limit);
}

/** Keyset page of the roster, ordered by (vessel_id, crew_unique_id), strictly after `after`. */
export async function fleetPage(
  db: Db,
  fleet: FleetRef,
  after: { vesselId: string; crewUniqueId: string } | null,
  limit: number,
): Promise<RosterEntry[]> {
  const rows: RosterRow[] = await fleetPageQuery(db, fleet, after, limit).execute();
  return rows.map(toRosterEntry);
}

/** A roster entry with what the fleet list shows beside it for one partner. */
export interface RosterEntryWithCounts extends RosterEntry {
  /** The crew member consents to share status with the partner. */
  statusConsent: boolean;
  /** Listable documents expiring in the window; 0 without documents consent or when not asked. */
  documentsExpiring: number;
}

/**
 * The fleet page in one statement: the keyset page (as fleetPage), each crew member's status and
 * documents consents to `partnerId`, and, when `expiring` is given, the number of listable
 * documents expiring between its dates (inclusive) for crew who consent to share documents.
 * Consents are found by their primary key, counts by documents_crew_listable
 * (bench/results/query-plans-of-the-request-path.md has the plans).
 */
export async function fleetPageWithCounts(
  db: Db,
  fleet: FleetRef,
  after: { vesselId: string; crewUniqueId: string } | null,
  limit: number,
  partnerId: string,
  expiring: { from: string; to: string; includeMedical: boolean } | null,
): Promise<RosterEntryWithCounts[]> {
  const consent = (category: 'status' | 'documents') => (eb: ExpressionBuilder<Database & { page: { crew_unique_id: string } }, 'page'>) =>
    eb.exists(
      eb
        .selectFrom('consents')
        .select(sql.lit(1).as('one'))
        .where('consents.partner_id', '=', partnerId)
        .where('consents.category', '=', category)
        .whereRef('consents.crew_unique_id', '=', 'page.crew_unique_id'),
    );
  const rows = await db
    .with('page', () => fleetPageQuery(db, fleet, after, limit))
    .selectFrom('page')
    .selectAll('page')
    .select((eb) => eb.case().when(consent('status')(eb)).then(1).else(0).end().as('status_consent'))
    .select((eb) => {
      if (!expiring) return sql.lit(0).as('documents_expiring');
      let count = eb
        .selectFrom('documents')
        .select(eb.fn.countAll().as('n'))
        .whereRef('documents.crew_unique_id', '=', 'page.crew_unique_id')
        .where('documents.processing_state', '=', 'processed')
        .where('documents.is_current', '=', 1)
        .where('documents.is_live', '=', 1)
        .where('documents.no_expiry', '=', 0)
        .where('documents.expiry_date', '>=', expiring.from)
        .where('documents.expiry_date', '<=', expiring.to);
      if (!expiring.includeMedical) count = count.where('documents.document_class', '!=', 'medical');
      return eb.case().when(consent('documents')(eb)).then(count).else(0).end().as('documents_expiring');
    })
    .orderBy('page.vessel_id')
    .orderBy('page.crew_unique_id')
    .execute();
  return rows.map(({ status_consent, documents_expiring, ...row }) => ({
    ...toRosterEntry(row),
    statusConsent: Number(status_consent) === 1,
    documentsExpiring: Number(documents_expiring),
  }));
}

/** Distinct crew ids on any of `vesselIds` (on-fleet statuses), a keyset page at a time. */
export async function crewPageOnVessels(db: Db, vesselIds: readonly string[], after: string | null, limit: number): Promise<string[]> {
  if (vesselIds.length === 0) return [];
  let query = db
    .selectFrom('assignments')
    .select('crew_unique_id')
    .distinct()
    .where('vessel_id', 'in', idSet(db, vesselIds))
    .where('status', 'in', ON_FLEET_STATUSES);
  if (after !== null) query = query.where('crew_unique_id', '>', after);
  return (await query.orderBy('crew_unique_id').limit(limit).execute()).map((r) => r.crew_unique_id);
}

/** How many crew crewPageOnVessels pages through: distinct crew on the fleet of `vesselIds`. */
export async function countCrewOnVessels(db: Db, vesselIds: readonly string[]): Promise<number> {
  if (vesselIds.length === 0) return 0;
  const row = await db
    .selectFrom('assignments')
    .select((eb) => eb.fn.count<number | string>('crew_unique_id').distinct().as('n'))
    .where('vessel_id', 'in', idSet(db, vesselIds))
    .where('status', 'in', ON_FLEET_STATUSES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The on-fleet assignments of several crew members on any of `vesselIds`. */
export async function assignmentsOnVessels(db: Db, vesselIds: readonly string[], crewIds: readonly string[]): Promise<Assignment[]> {
  if (crewIds.length === 0 || vesselIds.length === 0) return [];
  const rows = await db
    .selectFrom('assignments')
    .selectAll()
    .where('crew_unique_id', 'in', idSet(db, crewIds))
    .where('vessel_id', 'in', idSet(db, vesselIds))
    .where('status', 'in', ON_FLEET_STATUSES)
    .orderBy('crew_unique_id')
    .orderBy('vessel_id')
    .execute();
  return rows.map(toAssignment);
}

/** Crew with any assignment on the vessels, whatever its status: who a vessel's change can concern. */
export async function crewAssignedToVessels(db: Db, vesselIds: readonly string[]): Promise<string[]> {
  if (vesselIds.length === 0) return [];
  const rows = await db
    .selectFrom('assignments')
    .select('crew_unique_id')
    .distinct()
    .where('vessel_id', 'in', idSet(db, vesselIds))
    .execute();
  return rows.map((r) => r.crew_unique_id);
}
