import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequirementDefinition } from '../../src/domain/catalogue.ts';
import type { CrewDocument } from '../../src/domain/document.ts';
import { complianceChangedPayload, evaluateCompliance, toComplianceWire, type WireOptions } from '../../src/domain/compliance/index.ts';
import { ALL_BST_CODES, CATALOGUE, doc, input } from '../support/compliance.ts';

const COOK_DOCS: CrewDocument[] = [
  doc({ id: 'med', code: 'medical_fitness', expiry: '2027-01-10' }),
  doc({ id: 'bst', code: 'bst', stcwCodes: ALL_BST_CODES, expiry: null, noExpiry: true }),
  doc({ id: 'sec', code: 'sso', expiry: null, noExpiry: true }),
  doc({ id: 'cook', code: 'ships_cook', expiry: '2026-04-01' }),
];
const options = (over: Partial<WireOptions> = {}): WireOptions => ({
  asOf: '2026-03-01T10:00:00.000Z',
  crewUniqueId: 'crew_1',
  source: 'live_evaluator',
  medicalVisible: true,
  downloadPath: (id) => `/api/v2/files/tok_${id}`,
  ...over,
});
const evaluation = () => evaluateCompliance(input({ role: 'cook', positionName: 'Cook', documents: COOK_DOCS }));

describe('the compliance check wire shape', () => {
  it('is snake_case in the field order of docs/contract.md', () => {
    const wire = toComplianceWire(evaluation(), options());
    assert.deepEqual(Object.keys(wire), [
      'crew_unique_id',
      'vessel_id',
      'position_name',
      'as_of',
      'overall_status',
      'compliance_source',
      'summary',
      'requirements',
    ]);
    assert.deepEqual(Object.keys(wire.summary), ['total', 'met', 'expiring', 'expired', 'missing', 'pending']);
    assert.deepEqual(Object.keys(wire.requirements[0]!), [
      'key',
      'group',
      'category',
      'title',
      'code',
      'constraint',
      'status',
      'expiry_date',
      'days_until_expiry',
      'required',
      'satisfied_by',
      'modules',
    ]);
  });

  it('carries the evaluation, with download paths from the caller', () => {
    const wire = toComplianceWire(evaluation(), options());
    assert.deepEqual(
      { ...wire, requirements: undefined },
      {
        crew_unique_id: 'crew_1',
        vessel_id: 'ves_bulk',
        position_name: 'Cook',
        as_of: '2026-03-01T10:00:00Z',
        overall_status: 'non_compliant',
        compliance_source: 'live_evaluator',
        summary: { total: 5, met: 3, expiring: 1, expired: 0, missing: 1, pending: 0 },
        requirements: undefined,
      },
    );
    const cook = wire.requirements.find((r) => r.key === 'ships_cook');
    assert.deepEqual(cook, {
      key: 'ships_cook',
      group: 'qualification',
      category: 'training',
      title: "Ship's cook certificate",
      code: 'MLC A3.2',
      constraint: 'No expiry',
      status: 'expiring',
      expiry_date: '2026-04-01',
      days_until_expiry: 31,
      required: true,
      satisfied_by: [{ document_id: 'cook', title: 'ships_cook cook', expiry_date: '2026-04-01', download_path: '/api/v2/files/tok_cook' }],
      modules: null,
    });
    const bst = wire.requirements.find((r) => r.key === 'bst');
    assert.deepEqual(bst?.modules?.[0], {
      code: 'A-VI/1-1',
      name: 'Personal survival techniques (PST)',
      status: 'met',
      days_until_expiry: null,
      document_id: 'bst',
    });
  });

  it('gives null download paths when the caller may not download', () => {
    const wire = toComplianceWire(evaluation(), options({ downloadPath: () => null, source: 'serviceCompliance_fallback' }));
    assert.equal(wire.compliance_source, 'serviceCompliance_fallback');
    assert.deepEqual(
      wire.requirements.flatMap((r) => r.satisfied_by.map((d) => d.download_path)).filter((p) => p !== null),
      [],
    );
  });
});

describe('medical rows without crew:medical:read', () => {
  it('keep status and labels but no documents or expiry', () => {
    const wire = toComplianceWire(evaluation(), options({ medicalVisible: false }));
    const medical = wire.requirements.find((r) => r.key === 'medical_fitness');
    assert.deepEqual(medical, {
      key: 'medical_fitness',
      group: 'medical',
      category: 'medical',
      title: 'Medical fitness certificate',
      code: 'STCW I/9; MLC A1.2',
      constraint: 'Valid 2 years at most',
      status: 'met',
      expiry_date: null,
      days_until_expiry: null,
      required: true,
      satisfied_by: [],
      modules: null,
    });
    assert.equal(wire.requirements.find((r) => r.key === 'drug_alcohol_test')?.status, 'missing');
  });

  it('leave the other rows untouched', () => {
    const hidden = toComplianceWire(evaluation(), options({ medicalVisible: false }));
    const shown = toComplianceWire(evaluation(), options());
    assert.deepEqual(
      hidden.requirements.filter((r) => r.group !== 'medical'),
      shown.requirements.filter((r) => r.group !== 'medical'),
    );
    assert.deepEqual(hidden.summary, shown.summary);
    assert.equal(hidden.overall_status, shown.overall_status);
  });

  it('show every detail with the scope', () => {
    const medical = toComplianceWire(evaluation(), options()).requirements.find((r) => r.key === 'medical_fitness');
    assert.deepEqual(
      [medical?.expiry_date, medical?.days_until_expiry, medical?.satisfied_by.map((d) => d.document_id)],
      ['2027-01-10', 315, ['med']],
    );
  });

  it('withhold a medical-class document behind any other row too', () => {
    const docs = [doc({ id: 'odd', code: 'ships_cook', documentClass: 'medical' })];
    const e = evaluateCompliance(input({ role: 'cook', documents: docs }));
    const cook = toComplianceWire(e, options({ medicalVisible: false })).requirements.find((r) => r.key === 'ships_cook');
    assert.deepEqual([cook?.status, cook?.satisfied_by], ['met', []]);
  });
});

describe('the crew.compliance.changed payload', () => {
  it('summarises the evaluation with the earliest expiry of a met or expiring required row', () => {
    assert.deepEqual(complianceChangedPayload(evaluation(), 'crew_1'), {
      crew_unique_id: 'crew_1',
      vessel_id: 'ves_bulk',
      overall_status: 'non_compliant',
      requirements_met: 3,
      requirements_total: 5,
      requirements_expiring: 1,
      next_expiry_date: '2026-04-01',
    });
  });

  it('ignores expired, pending and missing rows for next_expiry_date', () => {
    const docs = [
      doc({ id: 'med', code: 'medical_fitness', expiry: '2026-02-01' }),
      doc({ id: 'da', code: 'drug_alcohol_test', expiry: '2026-03-05', verification: 'unverified' }),
      doc({ id: 'bst', code: 'bst', stcwCodes: ALL_BST_CODES, expiry: '2028-08-08' }),
      doc({ id: 'sec', code: 'security_awareness', expiry: '2027-07-07' }),
    ];
    const e = evaluateCompliance(input({ role: 'cook', documents: docs }));
    assert.equal(complianceChangedPayload(e, 'crew_1').next_expiry_date, '2027-07-07');
  });

  it('ignores rows that are not required', () => {
    const optional: RequirementDefinition[] = CATALOGUE.map((r) => (r.key === 'ships_cook' ? { ...r, required: false } : r));
    const e = evaluateCompliance(input({ role: 'cook', catalogue: optional, documents: COOK_DOCS }));
    assert.equal(complianceChangedPayload(e, 'crew_1').next_expiry_date, '2027-01-10');
  });

  it('is null when nothing met has an expiry, and for no_role', () => {
    const undated = [doc({ id: 'cook', code: 'ships_cook', expiry: null, noExpiry: true })];
    assert.equal(complianceChangedPayload(evaluateCompliance(input({ role: 'cook', documents: undated })), 'c').next_expiry_date, null);
    assert.deepEqual(complianceChangedPayload(evaluateCompliance(input({ role: 'purser' })), 'c'), {
      crew_unique_id: 'c',
      vessel_id: 'ves_bulk',
      overall_status: 'no_role',
      requirements_met: 0,
      requirements_total: 0,
      requirements_expiring: 0,
      next_expiry_date: null,
    });
  });

  it('leaves medical expiries out for a partner without crew:medical:read', () => {
    const docs = [
      doc({ id: 'med', code: 'medical_fitness', expiry: '2027-01-01' }),
      doc({ id: 'sec', code: 'security_awareness', expiry: '2027-07-07' }),
    ];
    const e = evaluateCompliance(input({ role: 'cook', documents: docs }));
    assert.equal(complianceChangedPayload(e, 'crew_1', true).next_expiry_date, '2027-01-01');
    assert.equal(complianceChangedPayload(e, 'crew_1', false).next_expiry_date, '2027-07-07');
  });
});
