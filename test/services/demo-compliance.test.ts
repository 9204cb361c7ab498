import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { checkCompliance, evaluateLive, chooseAssignment } from '../../src/services/compliance/check-compliance.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { crewAssignmentsOnFleet } from '../../src/store/repositories/crew-on-fleet-repo.ts';
import { createSqliteStoreUrl, type TestStore } from '../support/stores.ts';

const clock = () => new Date('2026-11-22T10:00:00.000Z');

/** Outcomes the demo data set was built to show (scripts/make-demo-fixtures.ts), on 2026-11-22. */
const EXPECTED: Array<[crew: string, vessel: string | undefined, overall: string, row?: [string, string]]> = [
  ['crew_0001', undefined, 'compliant', ['flag_endorsement', 'met']],
  ['crew_0002', undefined, 'at_risk', ['medical_fitness', 'expiring']],
  ['crew_0003', undefined, 'non_compliant', ['gmdss_goc', 'expired']],
  ['crew_0004', undefined, 'non_compliant', ['flag_endorsement', 'missing']],
  ['crew_0006', 'ves_nordic_star', 'compliant'],
  ['crew_0006', 'ves_fjord_spirit', 'non_compliant', ['tanker_basic', 'missing']],
  ['crew_0008', undefined, 'at_risk', ['coc', 'pending']],
  ['crew_0012', undefined, 'non_compliant', ['medical_fitness', 'missing']],
  ['crew_0016', undefined, 'no_role'],
  ['crew_0028', undefined, 'non_compliant', ['bst', 'expired']],
  ['crew_0032', undefined, 'non_compliant', ['coc', 'missing']],
  ['crew_0034', undefined, 'non_compliant', ['coc', 'missing']],
  ['crew_0036', undefined, 'compliant', ['coc', 'met']],
  ['crew_0060', undefined, 'non_compliant', ['coc', 'missing']],
  ['crew_0068', undefined, 'non_compliant', ['flag_endorsement', 'missing']],
  ['crew_0077', undefined, 'at_risk', ['flag_endorsement', 'expiring']],
];

describe('compliance on the demo data set (bulk carriers, tankers, restricted CoCs, endorsements)', () => {
  let store: Store;
  let file: TestStore;
  before(async () => {
    file = await createSqliteStoreUrl();
    store = await openStore(file.url);
    await migrateToLatest(store.db);
    await loadFixtures(store.db, ['data/requirements.json', 'fixtures/demo.json'], clock);
  });
  after(async () => {
    await store.close();
    await file.dispose();
  });

  for (const [crew, vessel, overall, row] of EXPECTED) {
    it(`${crew}${vessel ? ` on ${vessel}` : ''} is ${overall}${row ? ` (${row[0]} ${row[1]})` : ''}`, async () => {
      const assignments = await crewAssignmentsOnFleet(store.db, { kind: 'all' }, crew);
      const out = await checkCompliance(
        store.db,
        {
          clock,
          catalogue: new CatalogueCache(clock),
          windowDays: 90,
          deadlineMs: 2000,
          fault: 'none',
          evaluate: (input) => evaluateLive(store.db, input),
        },
        crew,
        chooseAssignment(assignments, crew, vessel),
      );
      assert.equal(out.evaluation.overallStatus, overall);
      if (row) assert.equal(out.evaluation.requirements.find((r) => r.key === row[0])?.status, row[1]);
    });
  }
});
