import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { bstExampleFixture } from '../support/bst-example.ts';
import { cli } from '../support/cli.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');

/** Another employer's vessel, and a partner of Bo's fleet without crew:compliance:read whom crew_bo consents to. */
const OTHERS = {
  employers: [{ employer_id: 'emp_other', name: 'Other Shipping' }],
  partners: [
    {
      partner_id: 'ptn_bo_status',
      name: 'Bo Status Only',
      kind: 'customer',
      employer_id: 'emp_bo',
      tier: 'management',
      scope_overrides: ['crew:status:read'],
    },
  ],
  vessels: [
    {
      vessel_id: 'ves_other',
      employer_id: 'emp_other',
      vessel_name: 'MV Other',
      imo: null,
      mmsi: null,
      flag_state: 'GB',
      vessel_type: 'bulk_carrier',
      gross_tonnage: 30000,
      propulsion_kw: 9000,
    },
  ],
  consents: [{ crew_unique_id: 'crew_bo', partner_id: 'ptn_bo_status', categories: ['status', 'compliance'] }],
};

describeEachStore('svc compliance forecast', ({ store, url }) => {
  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json', writeFixture(bstExampleFixture()), writeFixture(OTHERS)], () => NOW);
  });
  const forecast = async (...args: string[]) => {
    const res = await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_bo', ...args]);
    assert.equal(res.code, 0, res.stderr);
    return res.stdout;
  };

  it('lists who changes, from what to what, on which date and because of which requirement (the BST example)', async () => {
    assert.deepEqual(JSON.parse(await forecast('--json')), [
      {
        on: '2026-12-31',
        crew_unique_id: 'crew_bo',
        vessel_id: 'ves_bo',
        position_name: 'Master',
        from: 'compliant',
        to: 'at_risk',
        requirement_keys: ['bst'],
      },
    ]);
    assert.deepEqual(
      JSON.parse(await forecast('--on', '2027-01-15', '--days', '90', '--vessel', 'ves_bo', '--json')).map((e: any) => [
        e.on,
        e.from,
        e.to,
      ]),
      [['2027-04-01', 'at_risk', 'non_compliant']],
    );
    assert.match(
      await forecast(),
      /^ON\s+CREW\s+VESSEL\s+POSITION\s+FROM\s+TO\s+BECAUSE OF\n2026-12-31\s+crew_bo\s+ves_bo\s+Master\s+compliant\s+at_risk\s+bst$/m,
    );
  });

  it('a window the change falls outside lists nobody', async () => {
    assert.deepEqual(JSON.parse(await forecast('--days', '38', '--json')), []);
    assert.match(await forecast('--days', '38'), /no crew change compliance status/);
  });

  it('a bad date or window is bad usage (64); an unknown partner is refused', async () => {
    assert.equal((await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_bo', '--on', '2027-02-30'])).code, 64);
    assert.equal((await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_bo', '--days', '731'])).code, 64);
    const unknown = await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_nope']);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /no partner with id "ptn_nope"/);
  });

  it('an unknown or foreign --vessel is refused (exit 1), never an empty forecast', async () => {
    const unknown = await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_bo', '--vessel', 'ves_nope', '--json']);
    assert.deepEqual([unknown.code, unknown.stdout, unknown.stderr], [1, '', 'svc: no vessel with id "ves_nope"\n']);
    const foreign = await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_bo', '--vessel', 'ves_other', '--json']);
    assert.deepEqual(
      [foreign.code, foreign.stdout, foreign.stderr],
      [1, '', 'svc: vessel ves_other is not on the live fleet of partner ptn_bo\n'],
    );
  });

  it('a partner without crew:compliance:read is refused (exit 1): its fleet compliance list shows no one', async () => {
    const res = await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_bo_status', '--json']);
    assert.deepEqual([res.code, res.stdout], [1, '']);
    assert.match(res.stderr, /^svc: partner ptn_bo_status lacks the scope crew:compliance:read/);
  });
});
