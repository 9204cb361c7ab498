import { createHash } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { ROLES, VESSEL_TYPES } from '../../domain/catalogue.ts';
import { utcDate, type Clock } from '../../domain/clock.ts';
import { imoWithCheckDigit } from '../../domain/identifiers.ts';
import type { AssignmentsTable, ConsentsTable, CrewTable, Database, PartnersTable, VesselsTable } from '../../store/database.ts';
import {
  upsertAssignments,
  upsertCrew,
  upsertDocuments,
  upsertEmployers,
  upsertPartners,
  upsertVessels,
} from '../../store/repositories/reference-data-repo.ts';
import { analyzeStore } from '../../store/repositories/maintenance-repo.ts';
import { upsertRows } from '../../store/repositories/upsert.ts';
import { storeFile } from '../files/stored-files.ts';
import { generateDocuments } from './documents.ts';
import { createRng, type Rng } from './random.ts';

/** How large a data set to generate, and from which seed. */
export interface GenerateOptions {
  crew: number;
  vessels: number;
  partners: number;
  docsPerCrew: number;
  seed: number;
  /** Crew members written per transaction. */
  batchSize?: number;
  onProgress?: (crewWritten: number, total: number) => void;
}

const TIERS = ['management', 'recruiter', 'vessel', 'basic'] as const;
const FIRST = [
  'Ana',
  'Ben',
  'Chen',
  'Dimitri',
  'Eka',
  'Farah',
  'Goran',
  'Hana',
  'Ivan',
  'Joao',
  'Kofi',
  'Lena',
  'Mateo',
  'Nia',
  'Oleg',
  'Priya',
];
const LAST = [
  'Silva',
  'Okafor',
  'Wang',
  'Petrov',
  'Santos',
  'Haddad',
  'Novak',
  'Sato',
  'Ivanov',
  'Costa',
  'Mensah',
  'Berg',
  'Reyes',
  'Kim',
];
const COUNTRIES = ['PH', 'IN', 'UA', 'GR', 'NO', 'GB', 'PL', 'HR', 'ID', 'NG', 'BR', 'CN'];
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

const pad = (n: number, w = 6) => String(n).padStart(w, '0');
const employerId = (e: number) => `gen_emp_${pad(e, 3)}`;
const vesselId = (v: number) => `gen_ves_${pad(v, 4)}`;
const partnerId = (p: number) => `gen_ptn_${pad(p, 3)}`;
const crewId = (c: number) => `gen_crew_${pad(c, 7)}`;

function plan(options: GenerateOptions) {
  const employers = Math.max(1, Math.ceil(options.partners / 2));
  // Every fifth partner (from the fifth on) is external, with a contract over every fifth vessel.
  const external = (p: number) => p % 5 === 4;
  return { employers, external, employerOfVessel: (v: number) => v % employers, employerOfPartner: (p: number) => p % employers };
}

function vesselRows(options: GenerateOptions, employerOfVessel: (v: number) => number): Insertable<VesselsTable>[] {
  return Array.from({ length: options.vessels }, (_, vessel) => ({
    vessel_id: vesselId(vessel),
    employer_id: employerId(employerOfVessel(vessel)),
    vessel_name: `Generated ${pad(vessel, 4)}`,
    imo: imoWithCheckDigit(String(900000 + vessel).slice(-6)),
    mmsi: `2${pad(vessel, 8)}`,
    flag_state: COUNTRIES[vessel % COUNTRIES.length]!,
    vessel_type: VESSEL_TYPES[vessel % VESSEL_TYPES.length]!,
    gross_tonnage: 2000 + ((vessel * 7919) % 80000),
    propulsion_kw: 1500 + ((vessel * 104729) % 20000),
    trading_area: 'unlimited',
    is_test: options.vessels >= 10 && vessel % 10 === 9 ? 1 : 0,
  }));
}

function crewRow(rng: Rng, crewNumber: number, now: string, photoId: string): Insertable<CrewTable> {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const email = `${first}.${last}.${crewNumber}@crew.example`;
  const country = rng.pick(COUNTRIES);
  return {
    crew_unique_id: crewId(crewNumber),
    name: `${first} ${last}`,
    rank: null,
    email,
    email_normalized: email.toLowerCase(),
    phone: `+4479${pad(crewNumber, 8)}`,
    country_code: country,
    nationality: country,
    languages: '["en"]',
    skills: '[]',
    years_experience: rng.int(30),
    bio: null,
    date_of_birth: `19${70 + rng.int(30)}-0${1 + rng.int(9)}-1${rng.int(9)}`,
    address: null,
    passport: null,
    visas: '[]',
    employment_history: '[]',
    photo_file_id: rng.chance(0.5) ? photoId : null,
    verification_status: rng.pick(['unverified', 'pending', 'verified', 'verified'] as const),
    background_check_status: rng.pick(['not_started', 'pending', 'clear', 'clear', 'review', 'adverse', 'expired'] as const),
    profile_updated_at: now,
    updated_at: now,
  };
}

/**
 * Writes a deterministic data set straight into the store, in batches of crew (one transaction
 * each), with documents, assignments and consents. Re-running with the same options rewrites the
 * same rows.
 */
export async function generateData(db: Kysely<Database>, options: GenerateOptions, clock: Clock): Promise<Record<string, number>> {
  const now = clock().toISOString();
  const today = utcDate(clock());
  const layout = plan(options);
  const fileId = createHash('sha256').update(PDF).digest('hex');
  const counts = {
    employers: layout.employers,
    vessels: options.vessels,
    partners: options.partners,
    crew: options.crew,
    assignments: 0,
    consents: 0,
    documents: 0,
  };
  const partners: Insertable<PartnersTable>[] = Array.from({ length: options.partners }, (_, partnerIndex) => ({
    partner_id: partnerId(partnerIndex),
    name: `Generated partner ${partnerIndex}`,
    kind: layout.external(partnerIndex) ? 'external' : 'customer',
    employer_id: layout.external(partnerIndex) ? null : employerId(layout.employerOfPartner(partnerIndex)),
    tier: layout.external(partnerIndex) ? null : TIERS[partnerIndex % 4]!,
    scope_overrides: null,
    upgraded: 0,
    contract_scopes: layout.external(partnerIndex)
      ? JSON.stringify(['vessels:fleet:read', 'crew:status:read', 'crew:documents:read', 'crew:compliance:read'])
      : null,
    rate_limit: null,
    created_at: now,
  }));
  const customersOf = new Map<number, string[]>();
  partners.forEach((row, partnerIndex) => {
    const employer = layout.employerOfPartner(partnerIndex);
    if (row.kind === 'customer') customersOf.set(employer, [...(customersOf.get(employer) ?? []), row.partner_id]);
  });
  const externals = partners.map((row, partnerIndex) => ({ row, partnerIndex })).filter((x) => x.row.kind === 'external');

  await db.transaction().execute(async (trx) => {
    await storeFile(trx, fileId, 'application/pdf', [PDF], now);
    await upsertEmployers(
      trx,
      Array.from({ length: layout.employers }, (_, e) => ({ employer_id: employerId(e), name: `Generated employer ${e}` })),
    );
    await upsertVessels(trx, vesselRows(options, layout.employerOfVessel));
    await upsertPartners(trx, partners);
    for (const { row, partnerIndex } of externals) {
      const ids = Array.from({ length: options.vessels }, (_, v) => v)
        .filter((v) => v % 5 === partnerIndex % 5)
        .map((v) => ({ partner_id: row.partner_id, vessel_id: vesselId(v) }));
      await trx.deleteFrom('contract_vessels').where('partner_id', '=', row.partner_id).execute();
      await upsertRows(trx, 'contract_vessels', ids, ['partner_id', 'vessel_id']);
    }
  });

  const batch = options.batchSize ?? 2000;
  for (let start = 0; start < options.crew; start += batch) {
    const crew: Insertable<CrewTable>[] = [];
    const assignments: Insertable<AssignmentsTable>[] = [];
    const consents: Insertable<ConsentsTable>[] = [];
    const documents: ReturnType<typeof generateDocuments> = [];
    for (let crewNumber = start; crewNumber < Math.min(options.crew, start + batch); crewNumber++) {
      const rng = createRng(options.seed * 1_000_003 + crewNumber);
      crew.push(crewRow(rng, crewNumber, now, fileId));
      const role = ROLES[crewNumber % ROLES.length]!;
      const vessels = [
        crewNumber % options.vessels,
        ...(rng.chance(0.05) && options.vessels > 1 ? [(crewNumber + 1) % options.vessels] : []),
      ];
      for (const [assignmentIndex, vessel] of vessels.entries()) {
        const status = rng.chance(0.03)
          ? 'signed_off'
          : assignmentIndex === 0
            ? rng.pick(['active', 'active', 'active', 'invited', 'on_leave'] as const)
            : 'on_leave';
        assignments.push({
          assignment_id: `asg_${crewId(crewNumber)}_${vesselId(vessel)}`,
          crew_unique_id: crewId(crewNumber),
          vessel_id: vesselId(vessel),
          role,
          position_name: role,
          status,
          as_of: new Date(Date.parse(now) - (assignmentIndex + 1) * 86_400_000 * (1 + rng.int(300))).toISOString(),
        });
      }
      const partnerIds = new Set<string>();
      for (const vessel of vessels) {
        for (const id of customersOf.get(layout.employerOfVessel(vessel)) ?? []) partnerIds.add(id);
        for (const { row, partnerIndex } of externals) if (vessel % 5 === partnerIndex % 5) partnerIds.add(row.partner_id);
      }
      for (const pid of partnerIds) {
        const all = rng.chance(0.85);
        for (const category of ['status', 'profile', 'documents', 'compliance'] as const) {
          if (all || rng.chance(0.5)) consents.push({ crew_unique_id: crewId(crewNumber), partner_id: pid, category });
        }
      }
      documents.push(...generateDocuments(rng, crewId(crewNumber), role, options.docsPerCrew, today, fileId, now));
    }
    await db.transaction().execute(async (trx) => {
      await upsertCrew(trx, crew);
      await upsertAssignments(trx, assignments);
      await upsertRows(trx, 'consents', consents, ['crew_unique_id', 'partner_id', 'category']);
      await upsertDocuments(trx, documents, false);
    });
    counts.assignments += assignments.length;
    counts.consents += consents.length;
    counts.documents += documents.length;
    options.onProgress?.(Math.min(options.crew, start + batch), options.crew);
  }
  await analyzeStore(db);
  return counts;
}
