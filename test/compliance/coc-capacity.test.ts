import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Capacity } from '../../src/domain/classification.ts';
import type { CrewDocument } from '../../src/domain/document.ts';
import { capacityCovers, evaluateCompliance, type VesselFacts } from '../../src/domain/compliance/index.ts';
import { BULK_CARRIER, capacity, coc, doc, input } from '../support/compliance.ts';

// BULK_CARRIER: 40 000 GT, 9 000 kW, unlimited trading.
function cocRow(role: string, documents: CrewDocument[], vessel: VesselFacts = BULK_CARRIER) {
  const row = evaluateCompliance(input({ role, vessel, documents })).requirements.find((r) => r.key === 'coc');
  assert.ok(row, 'coc row');
  return row;
}
const statusWith = (role: string, capRole: string, cap: Partial<Capacity> = {}, vessel: VesselFacts = BULK_CARRIER) =>
  cocRow(role, [coc('c1', capRole, { capacity: cap })], vessel).status;

describe('a CoC satisfies the role it names or one it ranks above in the same department', () => {
  it('covers its own role', () => {
    assert.equal(statusWith('chief_officer', 'chief_officer'), 'met');
    assert.equal(statusWith('third_engineer', 'third_engineer'), 'met');
  });

  it('covers lower ranks of its department', () => {
    assert.equal(statusWith('chief_officer', 'master'), 'met');
    assert.equal(statusWith('third_officer', 'master'), 'met');
    assert.equal(statusWith('second_engineer', 'chief_engineer'), 'met');
    assert.equal(statusWith('third_engineer', 'second_engineer'), 'met');
  });

  it('treats second and third officer as one rank', () => {
    assert.equal(statusWith('second_officer', 'third_officer'), 'met');
    assert.equal(statusWith('third_officer', 'second_officer'), 'met');
  });

  it('does not cover a higher rank', () => {
    assert.equal(statusWith('master', 'chief_officer'), 'missing');
    assert.equal(statusWith('chief_officer', 'second_officer'), 'missing');
    assert.equal(statusWith('chief_engineer', 'second_engineer'), 'missing');
  });

  it('does not cross departments', () => {
    assert.equal(statusWith('chief_officer', 'chief_engineer'), 'missing');
    assert.equal(statusWith('third_engineer', 'master'), 'missing');
  });

  it('covers an ETO only with an ETO capacity', () => {
    assert.equal(statusWith('eto', 'eto'), 'met');
    assert.equal(statusWith('eto', 'chief_engineer'), 'missing');
    assert.equal(statusWith('third_engineer', 'eto'), 'missing');
  });
});

describe('a CoC capacity must cover the vessel', () => {
  it('fails on tonnage above gt_max, passes at or below it', () => {
    assert.equal(statusWith('master', 'master', { gt_max: 3000 }), 'missing');
    assert.equal(statusWith('master', 'master', { gt_max: 40_000 }), 'met');
    assert.equal(statusWith('master', 'master', { gt_max: 3000 }, { ...BULK_CARRIER, grossTonnage: 2_999 }), 'met');
  });

  it('fails on propulsion power above kw_max unless power is unrestricted', () => {
    assert.equal(statusWith('chief_engineer', 'chief_engineer', { kw_max: 3000 }), 'missing');
    assert.equal(statusWith('chief_engineer', 'chief_engineer', { kw_max: 3000, power_unrestricted: true }), 'met');
    assert.equal(statusWith('chief_engineer', 'chief_engineer', { kw_max: 9_000 }), 'met');
  });

  it('fails on a vessel type outside its list; an empty list covers all', () => {
    assert.equal(statusWith('master', 'master', { vessel_types: ['oil_tanker'] }), 'missing');
    assert.equal(statusWith('master', 'master', { vessel_types: ['container', 'bulk_carrier'] }), 'met');
    assert.equal(statusWith('master', 'master', { vessel_types: [] }), 'met');
  });

  it('covers a near-coastal vessel only with a near-coastal or unlimited capacity', () => {
    const nearCoastal: VesselFacts = { ...BULK_CARRIER, grossTonnage: 450, tradingArea: 'near_coastal' };
    assert.equal(statusWith('master', 'master', { area: 'near_coastal', gt_max: 500 }), 'missing');
    assert.equal(statusWith('master', 'master', { area: 'near_coastal', gt_max: 500 }, nearCoastal), 'met');
    assert.equal(statusWith('master', 'master', { area: 'unlimited' }, nearCoastal), 'met');
    assert.equal(statusWith('master', 'master', { area: 'somewhere' }, nearCoastal), 'missing');
  });

  it('is met when any one of several capacities fits', () => {
    const d = doc({
      id: 'c1',
      code: 'coc',
      flagState: 'PA',
      capacities: [
        capacity('master', { gt_max: 500, area: 'near_coastal' }),
        capacity('chief_officer', { gt_max: 3000 }),
        capacity('chief_officer'),
      ],
    });
    assert.equal(cocRow('chief_officer', [d]).status, 'met');
    assert.equal(cocRow('master', [d]).status, 'missing');
  });
});

describe('the CoC row', () => {
  it('lists only the CoCs that cover the role, best first', () => {
    const r = cocRow('second_officer', [
      coc('oow', 'second_officer', { expiry: '2028-01-01' }),
      coc('small', 'master', { expiry: '2031-01-01', capacity: { gt_max: 500 } }),
      coc('co', 'chief_officer', { expiry: '2029-01-01' }),
      doc({ id: 'goc', code: 'gmdss_goc' }),
    ]);
    assert.deepEqual([r.status, r.expiryDate, r.satisfiedBy.map((d) => d.documentId)], ['met', '2029-01-01', ['co', 'oow']]);
  });

  it('is not met by a GMDSS certificate, also of class coc', () => {
    assert.equal(cocRow('master', [doc({ id: 'goc', code: 'gmdss_goc', capacities: [capacity('master')] })]).status, 'missing');
  });
});

describe('capacityCovers', () => {
  it('checks every condition of docs/compliance-rules.md at once', () => {
    const ok = capacity('chief_engineer', { kw_max: 10_000, gt_max: 50_000, vessel_types: ['bulk_carrier'] });
    assert.equal(capacityCovers(ok, 'second_engineer', BULK_CARRIER), true);
    assert.equal(capacityCovers({ ...ok, gt_max: 39_999 }, 'second_engineer', BULK_CARRIER), false);
    assert.equal(capacityCovers({ ...ok, kw_max: 8_999 }, 'second_engineer', BULK_CARRIER), false);
    assert.equal(capacityCovers({ ...ok, vessel_types: ['tug'] }, 'second_engineer', BULK_CARRIER), false);
    assert.equal(capacityCovers({ ...ok, area: 'near_coastal' }, 'second_engineer', BULK_CARRIER), false);
  });
});
