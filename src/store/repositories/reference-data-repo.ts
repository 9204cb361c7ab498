import { sql, type Insertable, type Selectable } from 'kysely';
import type {
  AssignmentsTable,
  ConsentsTable,
  CrewTable,
  Db,
  DocumentsTable,
  EmployersTable,
  PartnersTable,
  RequirementCatalogueTable,
  VesselsTable,
} from '../database.ts';
import { idSet } from './id-set.ts';
import { upsertRows } from './upsert.ts';

/*
 * Bulk writes of the reference data (employers … documents) used by the fixture loader and the
 * data generator. Each is an idempotent upsert keyed by the table's id.
 */

export const upsertEmployers = (db: Db, rows: Insertable<EmployersTable>[]) => upsertRows(db, 'employers', rows, ['employer_id']);
export const upsertPartners = (db: Db, rows: Insertable<PartnersTable>[]) =>
  upsertRows(db, 'partners', rows, ['partner_id'], ['created_at']);
export const upsertVessels = (db: Db, rows: Insertable<VesselsTable>[]) => upsertRows(db, 'vessels', rows, ['vessel_id']);
export const upsertCrew = (db: Db, rows: Insertable<CrewTable>[]) => upsertRows(db, 'crew', rows, ['crew_unique_id']);
export const upsertAssignments = (db: Db, rows: Insertable<AssignmentsTable>[]) => upsertRows(db, 'assignments', rows, ['assignment_id']);
export const upsertDocuments = (db: Db, rows: Insertable<DocumentsTable>[], keepUpdatedAt: boolean) =>
  upsertRows(db, 'documents', rows, ['document_id'], keepUpdatedAt ? ['updated_at'] : []);
export const upsertCatalogue = (db: Db, rows: Insertable<RequirementCatalogueTable>[]) =>
  upsertRows(db, 'requirement_catalogue', rows, ['requirement_key']);
/** Replaces the contract vessel set of each external partner named. */
export async function replaceContractVessels(db: Db, partnerId: string, vesselIds: readonly string[]): Promise<void> {
  await db.deleteFrom('contract_vessels').where('partner_id', '=', partnerId).execute();
  // The ids as one parameter (id-set.ts): a contract may name more vessels than a
  // statement takes parameters.
  if (vesselIds.length > 0) {
    await db
      .insertInto('contract_vessels')
      .columns(['partner_id', 'vessel_id'])
      .expression(sql`select ${partnerId}, value from ${idSet(db, vesselIds)} as ids`)
      .execute();
  }
}

/** Replaces one crew member's consent categories for one partner. */
export async function replaceConsents(
  db: Db,
  crewUniqueId: string,
  partnerId: string,
  categories: readonly ConsentsTable['category'][],
): Promise<void> {
  await db.deleteFrom('consents').where('crew_unique_id', '=', crewUniqueId).where('partner_id', '=', partnerId).execute();
  if (categories.length > 0) {
    await db
      .insertInto('consents')
      .values([...new Set(categories)].map((category) => ({ crew_unique_id: crewUniqueId, partner_id: partnerId, category })))
      .execute();
  }
}

/**
 * The stored rows of the crew members named, by id (ids not stored are absent), in one statement:
 * the ids bound as one parameter (idSet).
 */
export async function findCrewRows(db: Db, ids: readonly string[]): Promise<Map<string, Selectable<CrewTable>>> {
  const out = new Map<string, Selectable<CrewTable>>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom('crew').selectAll().where('crew_unique_id', 'in', idSet(db, ids)).execute();
  for (const r of rows) out.set(r.crew_unique_id, r);
  return out;
}

/** A crew row to write without its two times (upsertCrewKeepingTimes sets them), and a profile time the source states, if any. */
export interface CrewWrite {
  row: Omit<Insertable<CrewTable>, 'profile_updated_at' | 'updated_at'>;
  profileUpdatedAt?: string;
}

const differs = (next: Record<string, unknown>, prev: Record<string, unknown>, skip: ReadonlySet<string> = new Set()) =>
  Object.keys(next).some((k) => !skip.has(k) && next[k] !== prev[k]);

/**
 * Upserts crew so that a reload of unchanged data changes nothing: profile_updated_at is the
 * stated one, else the stored one while no column outside `statusColumns` differs, else `now`;
 * updated_at stays as stored while no column differs (profile time included), else `now`.
 * `read`: the stored rows (findCrewRows) of ids covering every row written, read by the caller in
 * the same transaction with no crew written since (an id absent is not stored); else they are read here.
 */
export async function upsertCrewKeepingTimes(
  db: Db,
  writes: readonly CrewWrite[],
  now: string,
  statusColumns: ReadonlySet<string>,
  read?: ReadonlyMap<string, Selectable<CrewTable>>,
): Promise<void> {
  if (writes.length === 0) return;
  const stored =
    read ??
    (await findCrewRows(
      db,
      writes.map((w) => w.row.crew_unique_id),
    ));
  await upsertCrew(
    db,
    writes.map(({ row, profileUpdatedAt }) => {
      const prev = stored.get(row.crew_unique_id);
      const profileAt = profileUpdatedAt ?? (prev && !differs(row, prev, statusColumns) ? prev.profile_updated_at : now);
      const updatedAt = prev && !differs({ ...row, profile_updated_at: profileAt }, prev) ? prev.updated_at : now;
      return { ...row, profile_updated_at: profileAt, updated_at: updatedAt };
    }),
  );
}

/** The tables a fixture load or an ingest run fills. */
export const REFERENCE_TABLES = [
  'employers',
  'partners',
  'contract_vessels',
  'vessels',
  'crew',
  'assignments',
  'consents',
  'documents',
  'files',
  'requirement_catalogue',
] as const;

/** Row counts of the reference tables, for load summaries and tests. */
export async function countReferenceRows(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of REFERENCE_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}
