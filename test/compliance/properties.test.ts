import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { VESSEL_TYPES } from '../../src/domain/catalogue.ts';
import {
  evaluateCompliance,
  toComplianceWire,
  type ComplianceEvaluation,
  type EvaluationDocument,
  type EvaluationInput,
  type VesselFacts,
} from '../../src/domain/compliance/index.ts';
import { ALL_BST_CODES, ALL_ROLES, CATALOGUE, capacity, doc, type DocSpec } from '../support/compliance.ts';

const RUNS = { numRuns: 300 };
const DAY_MS = 86_400_000;
const BASE = Date.UTC(2022, 0, 1);
const dateAt = (day: number) => new Date(BASE + day * DAY_MS).toISOString().slice(0, 10);

const CODES = [
  'medical_fitness',
  'drug_alcohol_test',
  'bst',
  'security_awareness',
  'dsd',
  'sso',
  'pscrb',
  'aff',
  'mfa',
  'medical_care',
  'tanker_basic',
  'tanker_advanced_oil',
  'coc',
  'gmdss_goc',
  'flag_endorsement',
  'cop_ii_5',
  'cop_ii_4',
  'cop_iii_4',
  'cop_iii_5',
  'ecdis',
  'brm',
  'erm',
  'ships_cook',
  'passport',
  'other',
];
const FLAGS = ['PA', 'MT', 'LR'];
const CAPACITY_ROLES = [
  'master',
  'chief_officer',
  'second_officer',
  'third_officer',
  'chief_engineer',
  'second_engineer',
  'third_engineer',
  'eto',
];

const date = fc.integer({ min: 0, max: 3000 }).map(dateAt);
const capacityArb = fc
  .record({
    role: fc.constantFrom(...CAPACITY_ROLES),
    gt_max: fc.option(fc.constantFrom(500, 3000, 50_000), { nil: null }),
    kw_max: fc.option(fc.constantFrom(750, 3000, 20_000), { nil: null }),
    power_unrestricted: fc.boolean(),
    area: fc.constantFrom('unlimited', 'near_coastal'),
    vessel_types: fc.subarray(['bulk_carrier', 'oil_tanker', 'chemical_tanker', 'container'], { maxLength: 2 }),
  })
  .map(({ role, ...rest }) => capacity(role, rest));

const specArb: fc.Arbitrary<Omit<DocSpec, 'id'>> = fc.record({
  code: fc.constantFrom(...CODES),
  stcwCodes: fc.subarray(ALL_BST_CODES),
  expiry: fc.option(date, { nil: null, freq: 5 }),
  noExpiry: fc.boolean(),
  issueDate: fc.option(date, { nil: null }),
  verification: fc.constantFrom('verified', 'verified', 'verified', 'pending', 'unverified'),
  review: fc.constantFrom('approved', 'approved', 'approved', 'pending', 'flagged'),
  processingState: fc.constantFrom('processed', 'processed', 'processed', 'processing', 'rejected', 'duplicate', 'placeholder', 'legacy'),
  isCurrent: fc.boolean(),
  isLive: fc.constantFrom(true, true, true, false),
  flagState: fc.option(fc.constantFrom(...FLAGS), { nil: null }),
  capacities: fc.array(capacityArb, { maxLength: 2 }),
});
const docsArb = fc.array(specArb, { maxLength: 25 }).map((specs) => specs.map((s, i) => doc({ id: `doc_${i}`, ...s })));

const vesselArb: fc.Arbitrary<VesselFacts> = fc.record({
  vesselId: fc.constant('ves_1'),
  vesselType: fc.constantFrom(...VESSEL_TYPES),
  grossTonnage: fc.constantFrom(300, 2500, 40_000),
  propulsionKw: fc.constantFrom(500, 2500, 12_000),
  flagState: fc.constantFrom(...FLAGS),
  tradingArea: fc.constantFrom('unlimited', 'near_coastal'),
});

const inputArb: fc.Arbitrary<EvaluationInput> = fc.record({
  role: fc.constantFrom(...ALL_ROLES, 'deck_cadet'),
  positionName: fc.constant(null),
  vessel: vesselArb,
  catalogue: fc.constant(CATALOGUE),
  documents: docsArb,
  today: fc.integer({ min: 300, max: 2700 }).map(dateAt),
  windowDays: fc.integer({ min: 0, max: 200 }),
});

const unlisted = fc
  .tuple(
    specArb,
    fc.constantFrom<Partial<DocSpec>>(
      { isCurrent: false },
      { isLive: false },
      { processingState: 'processing' },
      { processingState: 'rejected' },
      { processingState: 'duplicate' },
      { processingState: 'placeholder' },
      { processingState: 'legacy' },
    ),
  )
  .map(([spec, flaw]) => doc({ ...spec, ...flaw, id: 'doc_unlisted' }));

function expectedOverall(e: ComplianceEvaluation): string {
  const statuses = new Set(e.requirements.filter((r) => r.required).map((r) => r.status));
  if (statuses.has('expired') || statuses.has('missing')) return 'non_compliant';
  if (statuses.has('expiring') || statuses.has('pending')) return 'at_risk';
  return 'compliant';
}

describe('properties of every evaluation', () => {
  it('has summary counts that add up to total, the number of rows', () => {
    fc.assert(
      fc.property(inputArb, (inp) => {
        const { summary, requirements } = evaluateCompliance(inp);
        assert.equal(summary.total, requirements.length);
        assert.equal(summary.met + summary.expiring + summary.expired + summary.missing + summary.pending, summary.total);
        for (const status of ['met', 'expiring', 'expired', 'missing', 'pending'] as const) {
          assert.equal(summary[status], requirements.filter((r) => r.status === status).length, status);
        }
      }),
      RUNS,
    );
  });

  it('has an overall status that agrees with its rows', () => {
    fc.assert(
      fc.property(inputArb, (inp) => {
        const e = evaluateCompliance(inp);
        if (inp.role === 'deck_cadet') assert.deepEqual([e.overallStatus, e.requirements], ['no_role', []]);
        else assert.equal(e.overallStatus, expectedOverall(e));
      }),
      RUNS,
    );
  });

  it('lists satisfying documents exactly when the row is not missing, and only listable ones', () => {
    fc.assert(
      fc.property(inputArb, (inp) => {
        const listable = new Set(
          inp.documents.filter((d) => d.processingState === 'processed' && d.isCurrent && d.isLive).map((d) => d.documentId),
        );
        for (const r of evaluateCompliance(inp).requirements) {
          assert.equal(r.satisfiedBy.length === 0, r.status === 'missing', r.key);
          for (const d of r.satisfiedBy) assert.ok(listable.has(d.documentId), `${r.key} lists ${d.documentId}`);
          for (const m of r.modules ?? []) assert.ok(m.documentId === null || listable.has(m.documentId));
          if (r.expiryDate === null) assert.equal(r.daysUntilExpiry, null);
          else assert.equal(r.daysUntilExpiry, (Date.parse(r.expiryDate) - Date.parse(inp.today)) / DAY_MS);
        }
      }),
      RUNS,
    );
  });

  it('never changes when a superseded, withdrawn or unprocessed document is added', () => {
    fc.assert(
      fc.property(inputArb, unlisted, fc.nat(), (inp, extra, at) => {
        const documents: EvaluationDocument[] = [...inp.documents];
        documents.splice(at % (documents.length + 1), 0, extra);
        assert.deepEqual(evaluateCompliance({ ...inp, documents }), evaluateCompliance(inp));
      }),
      RUNS,
    );
  });

  it('does not depend on the order of the documents', () => {
    fc.assert(
      fc.property(inputArb, fc.integer(), (inp, seed) => {
        const shuffled = [...inp.documents].sort((a, b) => hash(a.documentId, seed) - hash(b.documentId, seed));
        assert.deepEqual(evaluateCompliance({ ...inp, documents: shuffled }), evaluateCompliance(inp));
      }),
      RUNS,
    );
  });

  it('never turns an expired row met, or anything but expired, as the date moves forward', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 1, max: 1500 }), (inp, days) => {
        const before = evaluateCompliance(inp);
        const later = evaluateCompliance({ ...inp, today: dateAt((Date.parse(inp.today) - BASE) / DAY_MS + days) });
        const laterByKey = new Map(later.requirements.map((r) => [r.key, r.status]));
        for (const r of before.requirements) {
          if (r.status === 'expired') assert.equal(laterByKey.get(r.key), 'expired', r.key);
        }
      }),
      RUNS,
    );
  });

  it('keeps every status when medical details are withheld on the wire', () => {
    fc.assert(
      fc.property(inputArb, (inp) => {
        const e = evaluateCompliance(inp);
        const opts = {
          asOf: '2026-01-01T00:00:00Z',
          crewUniqueId: 'c',
          source: 'live_evaluator',
          downloadPath: (id: string) => id,
        } as const;
        const hidden = toComplianceWire(e, { ...opts, medicalVisible: false });
        const shown = toComplianceWire(e, { ...opts, medicalVisible: true });
        assert.deepEqual(
          hidden.requirements.map((r) => [r.key, r.status]),
          shown.requirements.map((r) => [r.key, r.status]),
        );
        for (const r of hidden.requirements.filter((x) => x.group === 'medical')) {
          assert.deepEqual([r.satisfied_by, r.expiry_date, r.days_until_expiry], [[], null, null]);
        }
      }),
      RUNS,
    );
  });
});

function hash(s: string, seed: number): number {
  let h = seed | 0;
  for (let i = 0; i < s.length; i += 1) h = Math.imul(h ^ s.charCodeAt(i), 2654435761);
  return h;
}
