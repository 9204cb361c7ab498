import fc from 'fast-check';
import { addDays } from '../../src/domain/compliance/dates.ts';
import { evaluateCompliance, type ComplianceEvaluation } from '../../src/domain/compliance/index.ts';
import { FORECAST_HORIZON_DAYS } from '../../src/domain/compliance/status-forecast.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import type { Db } from '../../src/store/database.ts';
import { readCatalogue } from '../../src/store/repositories/compliance-repo.ts';
import { listListableDocuments } from '../../src/store/repositories/documents-repo.ts';
import { crewAssignmentsOnFleet } from '../../src/store/repositories/crew-on-fleet-repo.ts';
import { writeFixture } from './mini-fixture.ts';
import { NOW, TODAY } from './read-api-world.ts';

/*
 * Generated crew for the fleet compliance tests: vessels of two employers (one test-flagged), a
 * management partner, an external partner without crew:medical:read, and another fleet's partner.
 * Each generated crew member has a role, an assignment, consents and documents dated around TODAY.
 */
export const VESSELS = ['ves_a', 'ves_b', 'ves_t', 'ves_z'] as const;

export function baseFixture(): Record<string, unknown> {
  const vessel = (id: string, employer: string, flag: string, type: string, extra: Record<string, unknown> = {}) => ({
    vessel_id: id,
    employer_id: employer,
    vessel_name: `MV ${id}`,
    imo: null,
    mmsi: null,
    flag_state: flag,
    vessel_type: type,
    gross_tonnage: 30000,
    propulsion_kw: 9000,
    ...extra,
  });
  return {
    employers: [
      { employer_id: 'emp_a', name: 'Alpha' },
      { employer_id: 'emp_z', name: 'Zulu' },
    ],
    vessels: [
      vessel('ves_a', 'emp_a', 'GB', 'bulk_carrier'),
      vessel('ves_b', 'emp_a', 'PA', 'oil_tanker'),
      vessel('ves_t', 'emp_a', 'GB', 'bulk_carrier', { is_test: true }),
      vessel('ves_z', 'emp_z', 'GB', 'bulk_carrier'),
    ],
    partners: [
      { partner_id: 'ptn_m', name: 'Management', kind: 'customer', employer_id: 'emp_a', tier: 'management' },
      {
        partner_id: 'ptn_nomed',
        name: 'No medical',
        kind: 'external',
        contract_scopes: ['crew:compliance:read'],
        contract_vessel_ids: ['ves_a', 'ves_b'],
      },
      { partner_id: 'ptn_z', name: 'Zulu', kind: 'customer', employer_id: 'emp_z', tier: 'management' },
    ],
  };
}

export const PARTNERS = ['ptn_m', 'ptn_nomed', 'ptn_z'] as const;
const ROLES = ['master', 'chief_engineer', 'bosun', 'cook', 'able_seafarer_deck'] as const;
const CODES = [
  'medical_fitness',
  'drug_alcohol_test',
  'bst',
  'security_awareness',
  'pscrb',
  'aff',
  'mfa',
  'medical_care',
  'coc',
  'gmdss_goc',
  'ecdis',
  'brm',
  'erm',
  'flag_endorsement',
  'tanker_basic',
  'ships_cook',
  'cop_ii_4',
  'cop_ii_5',
  'cop_iii_4',
  'passport',
] as const;
const CLASS: Record<string, string> = {
  medical_fitness: 'medical',
  drug_alcohol_test: 'medical',
  coc: 'coc',
  gmdss_goc: 'coc',
  flag_endorsement: 'endorsement',
  passport: 'identity',
  cop_ii_4: 'cop',
  cop_ii_5: 'cop',
  cop_iii_4: 'cop',
};
const BST = ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'];

export interface GenDoc {
  code: (typeof CODES)[number];
  /** Days from TODAY; null: no expiry recorded. */
  expiry: number | null;
  noExpiry: boolean;
  verification: 'verified' | 'pending';
  flag: 'GB' | 'PA';
  bst: string[];
}

export interface GenCrew {
  vessel: (typeof VESSELS)[number];
  status: 'active' | 'invited' | 'on_leave' | 'signed_off';
  role: (typeof ROLES)[number];
  /** Partners the crew member gives compliance consent to. */
  compliance: string[];
  docs: GenDoc[];
}

// Mostly far expiries, so that a crew member is often compliant on the first day and changes later.
const expiryArb = fc.option(
  fc.oneof({ arbitrary: fc.integer({ min: -40, max: 120 }), weight: 1 }, { arbitrary: fc.integer({ min: 121, max: 820 }), weight: 8 }),
  { nil: null, freq: 12 },
);

const docArb: fc.Arbitrary<GenDoc> = fc.record({
  code: fc.constantFrom(...CODES),
  expiry: expiryArb,
  noExpiry: fc.boolean(),
  verification: fc.constantFrom('verified', 'verified', 'verified', 'pending'),
  flag: fc.constantFrom('GB', 'PA'),
  bst: fc.subarray(BST, { minLength: 1 }),
});

export const crewArb: fc.Arbitrary<GenCrew> = fc.record({
  vessel: fc.constantFrom('ves_a', 'ves_a', 'ves_b', 'ves_t', 'ves_z'),
  status: fc.constantFrom('active', 'active', 'invited', 'on_leave', 'signed_off'),
  role: fc.constantFrom(...ROLES),
  compliance: fc.subarray([...PARTNERS]),
  // One document of every code (so that some crew meet every requirement), then a few more.
  docs: fc
    .tuple(fc.array(docArb, { minLength: CODES.length, maxLength: CODES.length }), fc.array(docArb, { maxLength: 4 }))
    .map(([all, extra]) => [...all.map((d, i) => ({ ...d, code: CODES[i]! })), ...extra]),
});

/** Loads generated crew with ids `${prefix}_${i}` (documents, assignment, consents) on top of the base fixture. */
export async function loadCrew(db: Db, prefix: string, crew: readonly GenCrew[]): Promise<string[]> {
  const ids = crew.map((_, i) => `${prefix}_${i}`);
  const fixture = {
    crew: ids.map((id) => ({ crew_unique_id: id, name: `Crew ${id}` })),
    assignments: crew.map((c, i) => ({
      crew_unique_id: ids[i],
      vessel_id: c.vessel,
      role: c.role,
      position_name: `Pos ${c.role}`,
      status: c.status,
      as_of: '2026-10-01T00:00:00Z',
    })),
    consents: crew.flatMap((c, i) =>
      c.compliance.map((p) => ({ crew_unique_id: ids[i], partner_id: p, categories: ['compliance', 'documents'] })),
    ),
    documents: crew.flatMap((c, i) =>
      c.docs.map((d, k) => ({
        document_id: `${ids[i]}_d${k}`,
        crew_unique_id: ids[i],
        type: 'certificate',
        category: CLASS[d.code] ?? 'training',
        title: `${d.code} ${k}`,
        verification_status: d.verification,
        expiry_date: d.expiry === null ? null : addDays(TODAY, d.expiry),
        no_expiry: d.expiry === null && d.noExpiry,
        classification: {
          document_class: CLASS[d.code] ?? 'training',
          category_code: d.code,
          ...(d.code === 'bst' ? { stcw_codes: d.bst } : {}),
          ...(d.code === 'coc' || d.code === 'flag_endorsement' ? { flag_state: d.flag } : {}),
          ...(d.code === 'coc'
            ? {
                coc_capacities: [
                  {
                    stcw_regulation: null,
                    role: c.role,
                    level: null,
                    gt_max: null,
                    kw_max: null,
                    power_unrestricted: false,
                    area: 'unlimited',
                    vessel_types: [],
                  },
                ],
              }
            : {}),
        },
      })),
    ),
  };
  await loadFixtures(db, [writeFixture(fixture)], () => NOW);
  return ids;
}

/** The overall status with medical rows held at `held`, their status today (a reader without crew:medical:read). */
function overall(e: ComplianceEvaluation, held: Map<string, string> | null): string {
  if (!held || e.overallStatus === 'no_role') return e.overallStatus;
  let atRisk = false;
  for (const r of e.requirements) {
    if (!r.required) continue;
    const s = held.get(r.key) ?? r.status;
    if (s === 'expired' || s === 'missing') return 'non_compliant';
    if (s === 'expiring' || s === 'pending') atRisk = true;
  }
  return atRisk ? 'at_risk' : 'compliant';
}

/**
 * The slow, obvious next change: the single check's evaluation (same documents, catalogue and
 * vessel) made for every day after `on` until the overall status differs from the day before.
 */
export async function dayByDayNextChange(
  db: Db,
  crewUniqueId: string,
  vesselId: string,
  on: string,
  windowDays: number,
  medicalVisible: boolean,
): Promise<{ on: string; overall_status: string; requirement_keys: string[] } | null> {
  const [catalogue, documents, assignments] = await Promise.all([
    readCatalogue(db),
    listListableDocuments(db, [crewUniqueId], true),
    crewAssignmentsOnFleet(db, { kind: 'all' }, crewUniqueId),
  ]);
  const a = assignments.find((x) => x.vessel.vesselId === vesselId)!;
  const at = (today: string) =>
    evaluateCompliance({
      role: a.assignment.role,
      positionName: a.assignment.positionName,
      vessel: a.vessel,
      catalogue,
      documents,
      today,
      windowDays,
    });
  let before = at(on);
  // Without crew:medical:read, medical rows stand as today on every date (docs/decisions.md §6).
  const held = medicalVisible
    ? null
    : new Map(
        at(TODAY)
          .requirements.filter((r) => r.group === 'medical')
          .map((r) => [r.key, r.status]),
      );
  const status = overall(before, held);
  for (let d = 1; d <= FORECAST_HORIZON_DAYS; d++) {
    const day = addDays(on, d);
    const e = at(day);
    if (overall(e, held) !== status) {
      const was = new Map(before.requirements.filter((r) => r.required).map((r) => [r.key, r.status]));
      const keys = new Set<string>();
      const shown = (r: { key: string }) => !held?.has(r.key);
      for (const r of e.requirements) {
        if (r.required && shown(r) && was.get(r.key) !== r.status) keys.add(r.key);
        was.delete(r.key);
      }
      for (const k of was.keys()) if (!held?.has(k)) keys.add(k);
      return { on: day, overall_status: overall(e, held), requirement_keys: [...keys].sort() };
    }
    before = e;
  }
  return null;
}
