import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { bstExampleFixture } from '../support/bst-example.ts';
import { cli } from '../support/cli.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');

describeEachStore('svc compliance forecast', ({ store, url }) => {
  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json', writeFixture(bstExampleFixture())], () => NOW);
  });
  const forecast = async (...args: string[]) => {
    const res = await cli(['--db', url(), 'compliance', 'forecast', '--partner', 'ptn_bo', ...args]);
    assert.equal(res.code, 0, res.stderr);
    return res.stdout;
  };

  it('lists who changes, from what to what, on which date and because of which requirement (the BST example)', async () => {
    assert.deepEqual(JSON.parse(await forecast('--json')), [{
      on: '2026-12-31', crew_unique_id: 'crew_bo', vessel_id: 'ves_bo', position_name: 'Master', from: 'compliant', to: 'at_risk', requirement_keys: ['bst'],
    }]);
    assert.deepEqual(JSON.parse(await forecast('--on', '2027-01-15', '--days', '90', '--vessel', 'ves_bo', '--json')).map((e: any) => [e.on, e.from, e.to]),
      [['2027-04-01', 'at_risk', 'non_compliant']]);
    assert.match(await forecast(), /^ON\s+CREW\s+VESSEL\s+POSITION\s+FROM\s+TO\s+BECAUSE OF\n2026-12-31\s+crew_bo\s+ves_bo\s+Master\s+compliant\s+at_risk\s+bst$/m);
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
});
