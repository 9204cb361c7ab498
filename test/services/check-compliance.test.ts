import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { checkCompliance, chooseAssignment, evaluateLive, type ComplianceDeps } from '../../src/services/compliance/check-compliance.ts';
import type { Db } from '../../src/store/database.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { crewAssignmentsOnFleet } from '../../src/store/repositories/crew-on-fleet-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

const clock = () => new Date('2026-11-22T10:00:00.000Z');
const deps = (db: Db, over: Partial<ComplianceDeps> = {}): ComplianceDeps => ({
  clock,
  evaluate: (input) => evaluateLive(db, input),
  catalogue: new CatalogueCache(clock),
  windowDays: 90,
  deadlineMs: 200,
  fault: 'none',
  ...over,
});

function twoVesselFixture() {
  const f = miniFixture();
  f.vessels.push({
    ...f.vessels[0],
    vessel_id: 'ves_b',
    vessel_name: 'Beta',
    imo: '9176187',
    mmsi: '235000002',
    vessel_type: 'oil_tanker',
  });
  f.assignments.push({
    crew_unique_id: 'crew_1',
    vessel_id: 'ves_b',
    role: 'chief_officer',
    status: 'on_leave',
    as_of: '2026-11-01T00:00:00Z',
  });
  return f;
}

describeEachStore('compliance checks with a stored-result fallback', ({ store }) => {
  before(() => loadFixtures(store().db, ['data/requirements.json', writeFixture(twoVesselFixture())], clock));
  const assignmentOf = async (vesselId?: string) =>
    chooseAssignment(await crewAssignmentsOnFleet(store().db, { kind: 'all' }, 'crew_1'), 'crew_1', vesselId);

  it('with no vessel given, the most recent active assignment is evaluated; a named vessel wins', async () => {
    assert.equal((await assignmentOf()).vessel.vesselId, 'ves_a');
    assert.equal((await assignmentOf('ves_b')).assignment.role, 'chief_officer');
    await assert.rejects(assignmentOf('ves_zzz'), { code: 'crew_not_found' });
  });

  it('with the evaluator failing and nothing stored, the check is compliance_unavailable with Retry-After', async () => {
    await store().db.deleteFrom('compliance_results').where('crew_unique_id', '=', 'crew_1').execute();
    await assert.rejects(
      checkCompliance(store().db, deps(store().db, { fault: 'fail' }), 'crew_1', await assignmentOf()),
      (err: any) => err.code === 'compliance_unavailable' && err.status === 503 && err.headers['Retry-After'] === '30',
    );
  });

  it('a live evaluation is stored, and returned as the fallback (with its own as_of) when the evaluator fails', async () => {
    const live = await checkCompliance(store().db, deps(store().db), 'crew_1', await assignmentOf());
    assert.equal(live.source, 'live_evaluator');
    assert.equal(live.asOf, clock().toISOString());
    assert.ok(live.evaluation.requirements.some((r) => r.key === 'medical_fitness' && r.status === 'met'));
    const laterDeps = deps(store().db, { fault: 'fail', clock: () => new Date('2026-11-23T00:00:00Z') });
    const fallback = await checkCompliance(store().db, laterDeps, 'crew_1', await assignmentOf());
    assert.equal(fallback.source, 'serviceCompliance_fallback');
    assert.equal(fallback.asOf, clock().toISOString());
    assert.deepEqual(fallback.evaluation, live.evaluation);
  });

  it('a stalled evaluator is cut off at the deadline and the stored result is returned', async () => {
    assert.equal((await checkCompliance(store().db, deps(store().db), 'crew_1', await assignmentOf())).source, 'live_evaluator');
    // The stall never ends: an answer at all means the deadline cut it off.
    const out = await checkCompliance(store().db, deps(store().db, { fault: 'stall', deadlineMs: 50 }), 'crew_1', await assignmentOf());
    assert.equal(out.source, 'serviceCompliance_fallback');
  });

  it('the fallback is per vessel: another vessel with nothing stored is still unavailable', async () => {
    await assert.rejects(checkCompliance(store().db, deps(store().db, { fault: 'fail' }), 'crew_1', await assignmentOf('ves_b')), {
      code: 'compliance_unavailable',
    });
  });
});
