import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrewDocument } from '../../src/domain/document.ts';
import { evaluateCompliance, type RequirementRow } from '../../src/domain/compliance/index.ts';
import { doc, fullSet, input, type DocSpec } from '../support/compliance.ts';

// TODAY is 2026-03-01; with the 90-day window the last expiring day is 2026-05-30.
function cookRow(documents: CrewDocument[], key = 'ships_cook', windowDays = 90): RequirementRow {
  const row = evaluateCompliance(input({ role: 'cook', positionName: 'Cook', documents, windowDays })).requirements.find(
    (r) => r.key === key,
  );
  assert.ok(row, `row ${key}`);
  return row;
}
const cert = (spec: Partial<DocSpec> = {}) => doc({ id: 'cook_1', code: 'ships_cook', ...spec });
const ids = (r: RequirementRow) => r.satisfiedBy.map((d) => d.documentId);

describe('a requirement is met when a satisfying document is valid beyond the window', () => {
  it('counts the whole days to its expiry', () => {
    const r = cookRow([cert({ expiry: '2026-05-31' })]);
    assert.deepEqual([r.status, r.expiryDate, r.daysUntilExpiry], ['met', '2026-05-31', 91]);
    assert.deepEqual(r.satisfiedBy, [
      { documentId: 'cook_1', title: 'ships_cook cook_1', expiryDate: '2026-05-31', documentClass: 'training' },
    ]);
  });

  it('is met with no expiry date and no day count when the document never expires', () => {
    const r = cookRow([cert({ expiry: null, noExpiry: true })]);
    assert.deepEqual([r.status, r.expiryDate, r.daysUntilExpiry], ['met', null, null]);
  });
});

describe('a requirement is expiring when its best document expires within the window', () => {
  it('includes the last day of the window', () => {
    const r = cookRow([cert({ expiry: '2026-05-30' })]);
    assert.deepEqual([r.status, r.daysUntilExpiry], ['expiring', 90]);
  });

  it('includes today', () => {
    const r = cookRow([cert({ expiry: '2026-03-01' })]);
    assert.deepEqual([r.status, r.daysUntilExpiry], ['expiring', 0]);
  });

  it('uses the window it is given', () => {
    assert.equal(cookRow([cert({ expiry: '2026-03-11' })], 'ships_cook', 10).status, 'expiring');
    assert.equal(cookRow([cert({ expiry: '2026-03-12' })], 'ships_cook', 10).status, 'met');
  });
});

describe('a requirement is expired when its best document has expired', () => {
  it('from the day after the expiry date', () => {
    const r = cookRow([cert({ expiry: '2026-02-28' })]);
    assert.deepEqual([r.status, r.expiryDate, r.daysUntilExpiry, ids(r)], ['expired', '2026-02-28', -1, ['cook_1']]);
  });

  it('is not rescued by an unverified renewal', () => {
    const r = cookRow([cert({ expiry: '2025-01-01' }), cert({ id: 'cook_2', expiry: '2031-01-01', verification: 'unverified' })]);
    assert.deepEqual([r.status, ids(r)], ['expired', ['cook_1']]);
  });
});

describe('a requirement is missing when no satisfying document is held', () => {
  it('has no expiry and nothing in satisfied_by', () => {
    const r = cookRow([doc({ id: 'x', code: 'passport' }), doc({ id: 'y', code: 'ecdis' })]);
    assert.deepEqual([r.status, r.expiryDate, r.daysUntilExpiry, r.satisfiedBy], ['missing', null, null, []]);
  });

  for (const [label, spec] of [
    ['still processing', { processingState: 'processing' }],
    ['rejected', { processingState: 'rejected' }],
    ['a duplicate', { processingState: 'duplicate' }],
    ['a placeholder', { processingState: 'placeholder' }],
    ['legacy', { processingState: 'legacy' }],
    ['superseded', { isCurrent: false }],
    ['withdrawn', { isLive: false }],
  ] as const) {
    it(`ignores a document that is ${label}`, () => {
      assert.equal(cookRow([cert(spec)]).status, 'missing');
    });
  }
});

describe('a requirement is pending when the only candidates cannot count yet', () => {
  for (const [label, spec] of [
    ['unverified', { verification: 'unverified' }],
    ['pending verification', { verification: 'pending' }],
    ['pending review', { review: 'pending' }],
    ['flagged in review', { review: 'flagged' }],
    ['without a recorded expiry', { expiry: null, noExpiry: false }],
  ] as const) {
    it(`when the document is ${label}`, () => {
      const r = cookRow([cert(spec)]);
      assert.deepEqual([r.status, ids(r)], ['pending', ['cook_1']]);
    });
  }

  it('is met instead when a valid document is held beside the pending one', () => {
    const r = cookRow([cert({ verification: 'unverified', expiry: '2035-01-01' }), cert({ id: 'cook_2', expiry: '2029-01-01' })]);
    assert.deepEqual([r.status, r.expiryDate, ids(r)], ['met', '2029-01-01', ['cook_2']]);
  });
});

describe('the best satisfying document decides the row', () => {
  it('is the one expiring last, listed first, expired ones left out', () => {
    const r = cookRow([
      cert({ id: 'a', expiry: '2027-01-01' }),
      cert({ id: 'b', expiry: '2029-06-30' }),
      cert({ id: 'c', expiry: '2025-01-01' }),
    ]);
    assert.deepEqual([r.status, r.expiryDate, ids(r)], ['met', '2029-06-30', ['b', 'a']]);
  });

  it('prefers a document that never expires to any date', () => {
    const r = cookRow([cert({ id: 'a', expiry: '2099-01-01' }), cert({ id: 'b', expiry: null, noExpiry: true })]);
    assert.deepEqual([r.expiryDate, ids(r)], [null, ['b', 'a']]);
  });

  it('makes an expiring row met when a later renewal is held', () => {
    const r = cookRow([cert({ id: 'old', expiry: '2026-04-01' }), cert({ id: 'new', expiry: '2031-04-01' })]);
    assert.equal(r.status, 'met');
  });
});

describe('security awareness', () => {
  for (const code of ['security_awareness', 'dsd', 'sso']) {
    it(`is met by a ${code} certificate`, () => {
      assert.equal(cookRow([doc({ id: 's', code, noExpiry: true, expiry: null })], 'security_awareness').status, 'met');
    });
  }
});

describe('the overall status', () => {
  const overall = (documents: CrewDocument[], role = 'cook') => evaluateCompliance(input({ role, documents })).overallStatus;

  it('is compliant when every required row is met', () => {
    assert.equal(overall(fullSet('cook')), 'compliant');
    assert.equal(overall(fullSet('master'), 'master'), 'compliant');
  });

  it('is at_risk when a required row is expiring', () => {
    assert.equal(overall([...fullSet('cook').filter((d) => d.documentId !== 'd_ships_cook'), cert({ expiry: '2026-04-01' })]), 'at_risk');
  });

  it('is at_risk when a required row is pending', () => {
    assert.equal(overall([...fullSet('cook').filter((d) => d.documentId !== 'd_ships_cook'), cert({ review: 'pending' })]), 'at_risk');
  });

  it('is non_compliant when a required row is missing', () => {
    assert.equal(overall(fullSet('cook').filter((d) => d.documentId !== 'd_ships_cook')), 'non_compliant');
  });

  it('is non_compliant when a required row is expired, even beside expiring and pending rows', () => {
    const docs = fullSet('cook').filter((d) => !['d_ships_cook', 'd_medical_fitness', 'd_drug_alcohol_test'].includes(d.documentId));
    docs.push(
      cert({ expiry: '2026-01-01' }),
      doc({ id: 'm', code: 'medical_fitness', expiry: '2026-03-10' }),
      doc({ id: 'da', code: 'drug_alcohol_test', verification: 'pending' }),
    );
    const e = evaluateCompliance(input({ role: 'cook', documents: docs }));
    assert.equal(e.overallStatus, 'non_compliant');
    assert.deepEqual(e.summary, { total: 5, met: 2, expiring: 1, expired: 1, missing: 0, pending: 1 });
  });

  it('counts every status once in the summary', () => {
    const e = evaluateCompliance(input({ role: 'cook', documents: [] }));
    assert.deepEqual(e.summary, { total: 5, met: 0, expiring: 0, expired: 0, missing: 5, pending: 0 });
  });
});

describe('evaluation input', () => {
  it('rejects a today that is not a YYYY-MM-DD date', () => {
    assert.throws(() => evaluateCompliance(input({ today: '2026-3-1' })), {
      name: 'RangeError',
      message: /today must be a YYYY-MM-DD date/,
    });
    assert.throws(() => evaluateCompliance(input({ today: '2026-02-30' })), RangeError);
  });

  it('rejects a negative or fractional window', () => {
    assert.throws(() => evaluateCompliance(input({ windowDays: -1 })), { name: 'RangeError', message: /windowDays/ });
    assert.throws(() => evaluateCompliance(input({ windowDays: 1.5 })), RangeError);
  });
});
