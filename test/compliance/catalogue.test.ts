import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { array, create, object, StructError } from 'superstruct';
import { RequirementDefinition } from '../../src/domain/catalogue.ts';
import { ALL_ROLES, CATALOGUE, CATALOGUE_PATH, OFFICERS, RATINGS } from '../support/compliance.ts';

const byKey = new Map(CATALOGUE.map((r) => [r.key, r]));
const get = (key: string): RequirementDefinition => {
  const r = byKey.get(key);
  assert.ok(r, `requirement ${key} is in the catalogue`);
  return r;
};

describe('the shipped requirement catalogue (data/requirements.json)', () => {
  it('holds exactly the requirements of docs/compliance-rules.md, in table order', () => {
    assert.deepEqual(
      CATALOGUE.map((r) => r.key),
      [
        'medical_fitness',
        'drug_alcohol_test',
        'bst',
        'security_awareness',
        'dsd',
        'pscrb',
        'aff',
        'mfa',
        'medical_care',
        'tanker_basic',
        'tanker_advanced_oil',
        'coc',
        'gmdss_goc',
        'flag_endorsement',
        'cop_rating',
        'ecdis',
        'brm',
        'erm',
        'ships_cook',
      ],
    );
  });

  it('is rejected by the RequirementDefinition struct when a definition is malformed', () => {
    const raw = JSON.parse(readFileSync(CATALOGUE_PATH, 'utf8')) as { requirements: Record<string, unknown>[] };
    raw.requirements[0] = { ...raw.requirements[0], roles: ['captain'] };
    assert.throws(
      () => create(raw, object({ requirements: array(RequirementDefinition) })),
      (err: unknown) => err instanceof StructError && err.path.join('.') === 'requirements.0.roles.0',
    );
  });

  it('puts each requirement in the group of the table', () => {
    const groups = Object.fromEntries(CATALOGUE.map((r) => [r.key, r.group]));
    assert.deepEqual(groups, {
      medical_fitness: 'medical',
      drug_alcohol_test: 'medical',
      bst: 'stcw',
      security_awareness: 'stcw',
      dsd: 'stcw',
      pscrb: 'stcw',
      aff: 'stcw',
      mfa: 'stcw',
      medical_care: 'stcw',
      tanker_basic: 'stcw',
      tanker_advanced_oil: 'stcw',
      coc: 'certificate',
      gmdss_goc: 'certificate',
      flag_endorsement: 'certificate',
      cop_rating: 'certificate',
      ecdis: 'qualification',
      brm: 'qualification',
      erm: 'qualification',
      ships_cook: 'qualification',
    });
  });

  it('names the roles of the "who" column', () => {
    const roles = (key: string) => [...get(key).roles].sort();
    const sorted = (xs: readonly string[]) => [...xs].sort();
    for (const key of ['medical_fitness', 'drug_alcohol_test', 'bst', 'security_awareness', 'tanker_basic']) {
      assert.deepEqual(roles(key), sorted(ALL_ROLES), key);
    }
    for (const key of ['aff', 'mfa', 'coc', 'flag_endorsement']) assert.deepEqual(roles(key), sorted(OFFICERS), key);
    assert.deepEqual(roles('pscrb'), sorted([...OFFICERS, 'bosun', 'able_seafarer_deck']));
    assert.deepEqual(roles('dsd'), sorted(['second_officer', 'third_officer', 'bosun', 'able_seafarer_deck']));
    assert.deepEqual(roles('medical_care'), sorted(['master', 'chief_officer']));
    assert.deepEqual(roles('tanker_advanced_oil'), sorted(['master', 'chief_officer', 'chief_engineer', 'second_engineer']));
    for (const key of ['gmdss_goc', 'ecdis', 'brm']) {
      assert.deepEqual(roles(key), sorted(['master', 'chief_officer', 'second_officer', 'third_officer']), key);
    }
    assert.deepEqual(roles('erm'), sorted(['chief_engineer', 'second_engineer', 'third_engineer', 'eto']));
    assert.deepEqual(roles('cop_rating'), sorted(RATINGS.filter((r) => r !== 'cook')));
    assert.deepEqual(roles('ships_cook'), ['cook']);
  });

  it('limits the tanker rows to their vessel types and no other row to any', () => {
    assert.deepEqual(get('tanker_basic').vessel_types, ['oil_tanker', 'chemical_tanker', 'oil_chemical_tanker']);
    assert.deepEqual(get('tanker_advanced_oil').vessel_types, ['oil_tanker', 'oil_chemical_tanker']);
    const others = CATALOGUE.filter((r) => !r.key.startsWith('tanker_') && (r.vessel_types?.length ?? 0) > 0);
    assert.deepEqual(
      others.map((r) => r.key),
      [],
    );
  });

  it('splits BST into four modules matched by STCW code, PST and FPFF for 5 years', () => {
    const modules = get('bst').modules?.map((m) => [m.code, m.match.stcw_codes, m.match.category_codes, m.validity_years]);
    assert.deepEqual(modules, [
      ['A-VI/1-1', ['A-VI/1-1'], [], 5],
      ['A-VI/1-2', ['A-VI/1-2'], [], 5],
      ['A-VI/1-3', ['A-VI/1-3'], [], null],
      ['A-VI/1-4', ['A-VI/1-4'], [], null],
    ]);
  });

  it('matches security awareness by its own, DSD and SSO category codes', () => {
    assert.deepEqual([...get('security_awareness').match.category_codes].sort(), ['dsd', 'security_awareness', 'sso']);
  });

  it('matches the rating CoP per role', () => {
    const byRole = Object.fromEntries(Object.entries(get('cop_rating').match_by_role ?? {}).map(([role, m]) => [role, m.category_codes]));
    assert.deepEqual(byRole, {
      bosun: ['cop_ii_5'],
      able_seafarer_deck: ['cop_ii_5'],
      ordinary_seafarer: ['cop_ii_4'],
      oiler: ['cop_iii_4'],
      motorman: ['cop_iii_5'],
    });
  });

  it('matches the CoC by capacity and the endorsement only when the CoC flag differs', () => {
    assert.equal(get('coc').matching, 'coc_capacity');
    assert.equal(get('flag_endorsement').matching, 'flag_endorsement');
    assert.equal(get('flag_endorsement').condition, 'coc_flag_differs');
    assert.deepEqual(
      CATALOGUE.filter((r) => r.condition !== undefined).map((r) => r.key),
      ['flag_endorsement'],
    );
  });

  it('marks every requirement required', () => {
    assert.deepEqual(
      CATALOGUE.filter((r) => r.required !== true).map((r) => r.key),
      [],
    );
  });
});
