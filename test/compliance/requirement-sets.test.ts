import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateCompliance } from '../../src/domain/compliance/index.ts';
import { ALL_ROLES, BULK_CARRIER, OIL_TANKER, input } from '../support/compliance.ts';

const COMMON = ['medical_fitness', 'drug_alcohol_test', 'bst', 'security_awareness'];
const DECK_OFFICER = ['pscrb', 'aff', 'mfa', 'coc', 'gmdss_goc', 'ecdis', 'brm'];
const ENGINE_OFFICER = ['pscrb', 'aff', 'mfa', 'coc', 'erm'];

// Written out from the "required of" column of docs/compliance-rules.md, independently of the JSON.
const ON_BULK_CARRIER: Record<string, string[]> = {
  master: [...COMMON, 'pscrb', 'aff', 'mfa', 'medical_care', 'coc', 'gmdss_goc', 'ecdis', 'brm'],
  chief_officer: [...COMMON, 'pscrb', 'aff', 'mfa', 'medical_care', 'coc', 'gmdss_goc', 'ecdis', 'brm'],
  second_officer: [...COMMON, 'dsd', ...DECK_OFFICER],
  third_officer: [...COMMON, 'dsd', ...DECK_OFFICER],
  chief_engineer: [...COMMON, ...ENGINE_OFFICER],
  second_engineer: [...COMMON, ...ENGINE_OFFICER],
  third_engineer: [...COMMON, ...ENGINE_OFFICER],
  eto: [...COMMON, ...ENGINE_OFFICER],
  bosun: [...COMMON, 'dsd', 'pscrb', 'cop_rating'],
  able_seafarer_deck: [...COMMON, 'dsd', 'pscrb', 'cop_rating'],
  ordinary_seafarer: [...COMMON, 'cop_rating'],
  oiler: [...COMMON, 'cop_rating'],
  motorman: [...COMMON, 'cop_rating'],
  cook: [...COMMON, 'ships_cook'],
};
const ADVANCED_OIL = new Set(['master', 'chief_officer', 'chief_engineer', 'second_engineer']);

const keys = (role: string, vessel = BULK_CARRIER) =>
  evaluateCompliance(input({ role, vessel }))
    .requirements.map((r) => r.key)
    .sort();

describe('the requirement set of each role', () => {
  for (const role of ALL_ROLES) {
    it(`${role} on a bulk carrier`, () => {
      assert.deepEqual(keys(role), [...ON_BULK_CARRIER[role]!].sort());
    });
    it(`${role} on an oil tanker adds the tanker training`, () => {
      const expected = [...ON_BULK_CARRIER[role]!, 'tanker_basic', ...(ADVANCED_OIL.has(role) ? ['tanker_advanced_oil'] : [])];
      assert.deepEqual(keys(role, OIL_TANKER), expected.sort());
    });
  }

  it('asks basic but not advanced oil tanker training on a chemical tanker', () => {
    const chemical = { ...OIL_TANKER, vesselType: 'chemical_tanker' };
    const k = keys('chief_officer', chemical);
    assert.ok(k.includes('tanker_basic'));
    assert.ok(!k.includes('tanker_advanced_oil'));
  });

  it('asks advanced oil tanker training on an oil/chemical tanker', () => {
    assert.ok(keys('master', { ...OIL_TANKER, vesselType: 'oil_chemical_tanker' }).includes('tanker_advanced_oil'));
  });

  it('keeps catalogue order in the rows', () => {
    assert.deepEqual(
      evaluateCompliance(input({ role: 'bosun' })).requirements.map((r) => r.key),
      ['medical_fitness', 'drug_alcohol_test', 'bst', 'security_awareness', 'dsd', 'pscrb', 'cop_rating'],
    );
  });
});

describe('a role outside the catalogue', () => {
  it('evaluates to no_role with no rows and zero counts', () => {
    const e = evaluateCompliance(input({ role: 'deck_cadet', positionName: 'Cadet' }));
    assert.deepEqual(e, {
      vesselId: 'ves_bulk',
      positionName: 'Cadet',
      overallStatus: 'no_role',
      summary: { total: 0, met: 0, expiring: 0, expired: 0, missing: 0, pending: 0 },
      requirements: [],
    });
  });

  it('is no_role with an empty catalogue too', () => {
    assert.equal(evaluateCompliance(input({ role: 'master', catalogue: [] })).overallStatus, 'no_role');
  });
});
