import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrewDocument } from '../../src/domain/document.ts';
import { evaluateCompliance, type RequirementRow } from '../../src/domain/compliance/index.ts';
import { ALL_BST_CODES, doc, input, type DocSpec } from '../support/compliance.ts';

const PST = 'A-VI/1-1';
const FPFF = 'A-VI/1-2';
const EFA = 'A-VI/1-3';
const PSSR = 'A-VI/1-4';

function bstRow(documents: CrewDocument[]): RequirementRow {
  const row = evaluateCompliance(input({ role: 'oiler', documents })).requirements.find((r) => r.key === 'bst');
  assert.ok(row, 'bst row');
  return row;
}
const bst = (id: string, stcwCodes: string[], spec: Partial<DocSpec> = {}) => doc({ id, code: 'bst', stcwCodes, ...spec });
const moduleStatuses = (r: RequirementRow) => r.modules?.map((m) => [m.code, m.status]);

describe('basic safety training is evaluated per module', () => {
  it('is met by one certificate listing all four modules, listed once', () => {
    const r = bstRow([bst('all', ALL_BST_CODES, { expiry: '2029-01-01' })]);
    assert.equal(r.status, 'met');
    assert.deepEqual(
      r.satisfiedBy.map((d) => d.documentId),
      ['all'],
    );
    assert.deepEqual(r.modules, [
      {
        code: PST,
        name: 'Personal survival techniques (PST)',
        status: 'met',
        daysUntilExpiry: 1037,
        documentId: 'all',
        expiryDate: '2029-01-01',
        documentClass: 'training',
      },
      {
        code: FPFF,
        name: 'Fire prevention and fire fighting (FPFF)',
        status: 'met',
        daysUntilExpiry: 1037,
        documentId: 'all',
        expiryDate: '2029-01-01',
        documentClass: 'training',
      },
      {
        code: EFA,
        name: 'Elementary first aid (EFA)',
        status: 'met',
        daysUntilExpiry: 1037,
        documentId: 'all',
        expiryDate: '2029-01-01',
        documentClass: 'training',
      },
      {
        code: PSSR,
        name: 'Personal safety and social responsibilities (PSSR)',
        status: 'met',
        daysUntilExpiry: 1037,
        documentId: 'all',
        expiryDate: '2029-01-01',
        documentClass: 'training',
      },
    ]);
  });

  it('takes the earliest module expiry as the row expiry and the worst status as the row status', () => {
    const r = bstRow([
      bst('pst', [PST], { expiry: '2026-04-01' }),
      bst('fpff', [FPFF], { expiry: '2029-01-01' }),
      bst('efa_pssr', [EFA, PSSR], { expiry: null, noExpiry: true }),
    ]);
    assert.deepEqual([r.status, r.expiryDate, r.daysUntilExpiry], ['expiring', '2026-04-01', 31]);
    assert.deepEqual(moduleStatuses(r), [
      [PST, 'expiring'],
      [FPFF, 'met'],
      [EFA, 'met'],
      [PSSR, 'met'],
    ]);
    assert.deepEqual(
      r.satisfiedBy.map((d) => d.documentId),
      ['efa_pssr', 'fpff', 'pst'],
    );
  });

  it('is missing when one module is missing, whatever the others', () => {
    const r = bstRow([bst('pst', [PST], { expiry: '2020-01-01' }), bst('rest', [FPFF, PSSR])]);
    assert.deepEqual([r.status, r.expiryDate, r.satisfiedBy], ['missing', null, []]);
    assert.deepEqual(moduleStatuses(r), [
      [PST, 'expired'],
      [FPFF, 'met'],
      [EFA, 'missing'],
      [PSSR, 'met'],
    ]);
    assert.equal(r.modules?.[2]?.documentId, null);
  });

  it('ranks expired above pending and pending above expiring', () => {
    const expiredAndPending = bstRow([
      bst('a', [PST, FPFF], { expiry: '2026-01-01' }),
      bst('b', [EFA, PSSR], { verification: 'unverified' }),
    ]);
    assert.equal(expiredAndPending.status, 'expired');
    const pendingAndExpiring = bstRow([bst('a', [PST, FPFF], { expiry: '2026-03-15' }), bst('b', [EFA, PSSR], { review: 'pending' })]);
    assert.equal(pendingAndExpiring.status, 'pending');
  });

  it('renews a module with the later certificate', () => {
    const r = bstRow([bst('old', ALL_BST_CODES, { expiry: '2026-01-01' }), bst('refresher', [PST, FPFF], { expiry: '2030-06-01' })]);
    assert.deepEqual(
      r.modules?.map((m) => m.documentId),
      ['refresher', 'refresher', 'old', 'old'],
    );
    assert.equal(r.status, 'expired');
  });

  it('is missing with a BST certificate that names no module', () => {
    assert.deepEqual(moduleStatuses(bstRow([bst('bare', [])])), [
      [PST, 'missing'],
      [FPFF, 'missing'],
      [EFA, 'missing'],
      [PSSR, 'missing'],
    ]);
  });

  it('leaves modules null on every other row', () => {
    const rows = evaluateCompliance(input({ role: 'master' })).requirements;
    assert.deepEqual(
      rows.filter((r) => r.modules !== null).map((r) => r.key),
      ['bst'],
    );
  });
});
