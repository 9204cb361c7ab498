import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrewDocument } from '../../src/domain/document.ts';
import { evaluateCompliance } from '../../src/domain/compliance/index.ts';
import { coc, doc, input, type DocSpec } from '../support/compliance.ts';

// The vessel (BULK_CARRIER) flies the flag of PA.
function endorsementRow(documents: CrewDocument[], role = 'chief_officer') {
  return evaluateCompliance(input({ role, documents })).requirements.find((r) => r.key === 'flag_endorsement');
}
const endorsement = (id: string, spec: Partial<DocSpec> = {}) => doc({ id, code: 'flag_endorsement', flagState: 'PA', ...spec });

describe('the flag endorsement applies when the CoC was issued by another flag', () => {
  it('is not asked when the CoC flag is the vessel flag, in any letter case', () => {
    assert.equal(endorsementRow([coc('c', 'chief_officer', { flagState: 'PA' })]), undefined);
    assert.equal(endorsementRow([coc('c', 'chief_officer', { flagState: 'pa' })]), undefined);
  });

  it('is not asked without a CoC, or with a CoC that names no flag', () => {
    assert.equal(endorsementRow([]), undefined);
    assert.equal(endorsementRow([coc('c', 'chief_officer', { flagState: null })]), undefined);
  });

  it('is not asked when the foreign CoC does not cover the role', () => {
    assert.equal(endorsementRow([coc('c', 'second_officer', { flagState: 'MT' })]), undefined);
  });

  it('is missing when a foreign CoC is held without an endorsement of the vessel flag', () => {
    const docs = [coc('c', 'chief_officer', { flagState: 'MT' }), endorsement('e', { flagState: 'LR' })];
    const e = evaluateCompliance(input({ role: 'chief_officer', documents: docs }));
    const row = e.requirements.find((r) => r.key === 'flag_endorsement');
    assert.deepEqual([row?.status, row?.group, row?.satisfiedBy], ['missing', 'certificate', []]);
    assert.equal(e.overallStatus, 'non_compliant');
  });

  it('is met by an endorsement of the vessel flag', () => {
    const row = endorsementRow([
      coc('c', 'chief_officer', { flagState: 'MT', expiry: '2030-01-01' }),
      endorsement('e', { expiry: '2028-01-01' }),
    ]);
    assert.deepEqual([row?.status, row?.expiryDate, row?.satisfiedBy.map((d) => d.documentId)], ['met', '2028-01-01', ['e']]);
  });

  it('follows the best CoC even when another covering CoC is of the vessel flag', () => {
    const docs = [
      coc('own', 'chief_officer', { flagState: 'PA', expiry: '2027-01-01' }),
      coc('foreign', 'master', { flagState: 'MT', expiry: '2030-01-01' }),
    ];
    assert.equal(endorsementRow(docs)?.status, 'missing');
  });

  it('is asked of engine officers and the ETO too, never of ratings', () => {
    assert.equal(endorsementRow([coc('c', 'eto', { flagState: 'MT' })], 'eto')?.status, 'missing');
    assert.equal(endorsementRow([coc('c', 'chief_engineer', { flagState: 'MT' })], 'second_engineer')?.status, 'missing');
    assert.equal(endorsementRow([coc('c', 'bosun', { flagState: 'MT' })], 'bosun'), undefined);
  });
});

describe('a flag endorsement is never valid past its CoC', () => {
  it('takes the CoC expiry when the CoC expires first, keeping its own date in satisfied_by', () => {
    const row = endorsementRow([
      coc('c', 'chief_officer', { flagState: 'MT', expiry: '2027-06-01' }),
      endorsement('e', { expiry: '2031-01-01' }),
    ]);
    assert.deepEqual([row?.status, row?.expiryDate, row?.satisfiedBy[0]?.expiryDate], ['met', '2027-06-01', '2031-01-01']);
  });

  it('turns expiring with a CoC about to expire, even with no expiry of its own', () => {
    const row = endorsementRow([
      coc('c', 'chief_officer', { flagState: 'MT', expiry: '2026-04-15' }),
      endorsement('e', { expiry: null, noExpiry: true }),
    ]);
    assert.deepEqual([row?.status, row?.expiryDate, row?.daysUntilExpiry], ['expiring', '2026-04-15', 45]);
  });

  it('is expired with an expired CoC', () => {
    const row = endorsementRow([
      coc('c', 'chief_officer', { flagState: 'MT', expiry: '2026-01-31' }),
      endorsement('e', { expiry: '2029-01-01' }),
    ]);
    assert.deepEqual([row?.status, row?.expiryDate], ['expired', '2026-01-31']);
  });

  it('keeps its own expiry when the CoC never expires', () => {
    const row = endorsementRow([
      coc('c', 'chief_officer', { flagState: 'MT', expiry: null, noExpiry: true }),
      endorsement('e', { expiry: '2028-02-01' }),
    ]);
    assert.deepEqual([row?.status, row?.expiryDate], ['met', '2028-02-01']);
  });
});
