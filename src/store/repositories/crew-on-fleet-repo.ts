import { sql, type InferResult, type Selectable } from 'kysely';
import type { CrewAssignment } from '../../domain/fleet.ts';
import type { FleetRef } from '../../domain/partner.ts';
import { CONSENT_CATEGORIES, ON_FLEET_STATUSES, type ConsentCategory } from '../../domain/vocabulary.ts';
import type { CrewTable, Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';
import {
  crewEvaluationDocumentsValue,
  evaluationDocumentsOf,
  type EvaluationDocumentsValue,
  type EvaluationDocumentWithFile,
} from './documents-repo.ts';
import { assignmentsWithVessels, fleetVesselIds, toAssignment, toVessel } from './fleet-repo.ts';

/*
 * What a partner may see of one crew member on its fleet: their on-fleet assignments and the
 * consents they give the partner, read once per partner call about them.
 */

/** A crew member's on-fleet assignments with their vessels, newest first. Empty: not on the fleet. */
function assignmentsOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string) {
  return assignmentsWithVessels(db)
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
function onFleet(fleet: FleetRef, crewUniqueId: string) {
  return sql`a.crew_unique_id = ${crewUniqueId} and a.vessel_id in ${fleetVesselIdsSql(fleet)} and a.status in (${sql.join(ON_FLEET_STATUSES)})`;
}

/** fleetVesselIds (./fleet-repo.ts) as SQL: the builder built and compiled it anew on every call. */
function fleetVesselIdsSql(fleet: FleetRef) {
  switch (fleet.kind) {
    case 'employer':
      return sql`(select fv.vessel_id from vessels fv where fv.employer_id = ${fleet.employerId} and fv.is_test = ${fleet.isTest ? 1 : 0})`;
    case 'contract':
      return sql`(select fv.vessel_id from contract_vessels fc join vessels fv on fv.vessel_id = fc.vessel_id
        where fc.partner_id = ${fleet.partnerId} and fv.is_test = ${fleet.isTest ? 1 : 0})`;
    case 'all':
      return sql`(select fv.vessel_id from vessels fv)`;
    case 'none':
      // A subquery that matches nothing (vessel_id is a primary key, never null).
      return sql`(select fv.vessel_id from vessels fv where fv.vessel_id is null)`;
  }
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

/** The select list and conditions of crewAccessOnFleet, with `extra` columns beside them. */
function accessRows<R>(db: Db, fleet: FleetRef, crewUniqueId: string, partnerId: string, extra = sql``) {
  return sql<AccessRow & R>`
    select v.*, a.assignment_id, a.crew_unique_id, a.role, a.position_name, a.status, a.as_of,
      ${consentList(db, crewUniqueId, partnerId)} as consents${extra}
    from assignments a join vessels v on v.vessel_id = a.vessel_id
    where ${onFleet(fleet, crewUniqueId)}
    order by a.as_of desc, a.vessel_id`;
}

function accessOf(rows: readonly AccessRow[]): CrewAccess {
  return { assignments: rows.map((r) => ({ assignment: toAssignment(r), vessel: toVessel(r) })), consents: consentsOf(rows[0]?.consents) };
}

/**
 * crewAssignmentsOnFleet and the crew member's consents to `partnerId` in one round trip (each
 * assignment row carries the consent list). No assignment: no consents either.
 */
export async function crewAccessOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string, partnerId: string): Promise<CrewAccess> {
  const { rows } = await accessRows(db, fleet, crewUniqueId, partnerId).execute(db);
  return accessOf(rows);
}

/** What a compliance check reads about its crew member: CrewAccess, and the documents it evaluates. */
export interface CrewCheck extends CrewAccess {
  /** crewEvaluationDocuments's answer; none when the crew member is not on the fleet. */
  documents: EvaluationDocumentWithFile[];
}

/**
 * crewAccessOnFleet with the crew member's evaluation documents (medical ones included) in the
 * same statement, one round trip instead of two for a check that is not answered from the read
 * cache. The documents are read before consent is known: the caller hands them on only once
 * access is granted (src/services/read-api/compliance.ts). test/store/crew-access.test.ts holds it
 * equal to the two reads apart, on both stores.
 */
export async function crewCheckOnFleet(db: Db, fleet: FleetRef, crewUniqueId: string, partnerId: string): Promise<CrewCheck> {
  const documents = sql`, ${crewEvaluationDocumentsValue(db, crewUniqueId)} as documents`;
  const { rows } = await accessRows<{ documents: EvaluationDocumentsValue }>(db, fleet, crewUniqueId, partnerId, documents).execute(db);
  return { ...accessOf(rows), documents: rows[0] ? evaluationDocumentsOf(rows[0].documents) : [] };
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
    select c.*, exists (select 1 from assignments a where ${onFleet(fleet, crewUniqueId)}) as on_fleet,
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
