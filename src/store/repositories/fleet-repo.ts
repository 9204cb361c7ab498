import { sql, type ExpressionBuilder, type InferResult, type Selectable } from 'kysely';
import type { Assignment, CrewAssignment, RosterEntry, Vessel } from '../../domain/fleet.ts';
import type { FleetRef } from '../../domain/partner.ts';
import { CONSENT_CATEGORIES, ON_FLEET_STATUSES, type ConsentCategory } from '../../domain/vocabulary.ts';
import type { AssignmentsTable, CrewTable, Database, Db, VesselsTable } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';
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

/** A crew member's on-fleet assignments with their vessels, newest first. Empty: not on the fleet. */
function assignmentsOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string) {
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
    ])
    .where('assignments.crew_unique_id', '=', crewUniqueId)
    .where('assignments.vessel_id', 'in', fleetVesselIds(db, fleet))
    .where('assignments.status', 'in', ON_FLEET_STATUSES)
    .orderBy('assignments.as_of', 'desc')
    .orderBy('assignments.vessel_id');
}

export async function crewAssignmentsOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string): Promise<CrewAssignment[]> {
  const rows = await assignmentsOnFleet(db, fleet, crewUniqueId).execute();
  return rows.map((r) => ({ assignment: toAssignment(r), vessel: toVessel(r) }));
}

/** A crew member's assignments on a fleet and the consent categories they give a partner. */
export interface CrewAccess {
  assignments: CrewAssignment[];
  consents: Set<ConsentCategory>;
}

/**
 * An assignment row `a` of `crewUniqueId` that is on the fleet: assignmentsOnFleet's condition,
 * written as SQL for the reads every partner call about a crew member makes (below), which
 * building and compiling the query with Kysely's builder cost more CPU than Postgres took to run
 * (bench/results/api-under-load.md). test/store/crew-access.test.ts holds both reads equal to
 * crewAssignmentsOnFleet on every kind of fleet.
 */
function onFleet(db: Db, fleet: FleetRef, crewUniqueId: string) {
  return sql`a.crew_unique_id = ${crewUniqueId} and a.vessel_id in ${fleetVesselIds(db, fleet)} and a.status in (${sql.join(ON_FLEET_STATUSES)})`;
}

/**
 * The categories the crew member gives `partnerId`, comma-separated, null for none: one subquery
 * over the consents primary key (crew, partner, category).
 */
function consentList(db: Db, crewUniqueId: string, partnerId: string) {
  const list = dialectOf(db) === 'postgres' ? sql`string_agg(category, ',')` : sql`group_concat(category, ',')`;
  return sql<string | null>`(select ${list} from consents where crew_unique_id = ${crewUniqueId} and partner_id = ${partnerId})`;
}

/** The categories of a consentList (none for null or undefined). */
function consentsOf(list: string | null | undefined): Set<ConsentCategory> {
  const given = new Set(list ? list.split(',') : []);
  return new Set(CONSENT_CATEGORIES.filter((c) => given.has(c)));
}

/** A row of crewAccessOnFleet: assignmentsOnFleet's, and the consent list. */
type AccessRow = InferResult<ReturnType<typeof assignmentsOnFleet>>[number] & { consents: string | null };

/**
 * crewAssignmentsOnFleet and the crew member's consents to `partnerId` in one round trip (each
 * assignment row carries the consent list). No assignment: no consents either.
 */
export async function crewAccessOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string, partnerId: string): Promise<CrewAccess> {
  const { rows } = await sql<AccessRow>`
    select v.*, a.assignment_id, a.crew_unique_id, a.role, a.position_name, a.status, a.as_of,
      ${consentList(db, crewUniqueId, partnerId)} as consents
    from assignments a join vessels v on v.vessel_id = a.vessel_id
    where ${onFleet(db, fleet, crewUniqueId)}
    order by a.as_of desc, a.vessel_id`.execute(db);
  return { assignments: rows.map((r) => ({ assignment: toAssignment(r), vessel: toVessel(r) })), consents: consentsOf(rows[0]?.consents) };
}

/** A crew member's row, whether they are on a fleet, and the consents they give a partner. */
export interface CrewOnFleet {
  crew: Selectable<CrewTable>;
  /** Whether any assignment of theirs is on the fleet (crewAssignmentsOnFleet would find one). */
  onFleet: boolean;
  /** Their consents to the partner; none when they are not on the fleet. */
  consents: Set<ConsentCategory>;
}

/**
 * The crew row with CrewAccess's answer in the same round trip (the profile's read): whether
 * crewAssignmentsOnFleet finds any assignment, and the consents. Undefined when no such crew member is held.
 */
export async function crewOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string, partnerId: string): Promise<CrewOnFleet | undefined> {
  const { rows } = await sql<Selectable<CrewTable> & { on_fleet: boolean | number; consents: string | null }>`
    select c.*, exists (select 1 from assignments a where ${onFleet(db, fleet, crewUniqueId)}) as on_fleet,
      ${consentList(db, crewUniqueId, partnerId)} as consents
    from crew c where c.crew_unique_id = ${crewUniqueId}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  // true on Postgres, 1 on SQLite.
  const found = Number(row.on_fleet) === 1;
  return { crew: row, onFleet: found, consents: found ? consentsOf(row.consents) : new Set() };
}

/** The crew id whose normalized e-mail matches, among crew on the fleet. */
export async function findFleetCrewByEmail(db: Db, fleet: FleetRef, emailNormalized: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('crew')
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
