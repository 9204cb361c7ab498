import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ComplianceEvaluation } from '../../src/domain/compliance/index.ts';
import { latestEvaluation, readCatalogue, saveEvaluation } from '../../src/store/repositories/compliance-repo.ts';
import { countHit, deleteWindowsBefore } from '../../src/store/repositories/rate-limits-repo.ts';
import { describeEachStore } from '../support/stores.ts';

const evaluation = (overallStatus: ComplianceEvaluation['overallStatus']): ComplianceEvaluation => ({
  vesselId: 'ves_1',
  positionName: 'Master',
  overallStatus,
  summary: { total: 0, met: 0, expiring: 0, expired: 0, missing: 0, pending: 0 },
  requirements: [],
});

describeEachStore('stored compliance results and rate-limit counters', ({ store }) => {
  it('the latest evaluation per crew member and vessel replaces the one before; none for another vessel', async () => {
    const db = store().db;
    assert.deepEqual(await readCatalogue(db), []);
    await saveEvaluation(db, 'crew_1', 'ves_1', '2026-11-22T10:00:00.000Z', evaluation('at_risk'));
    await saveEvaluation(db, 'crew_1', 'ves_1', '2026-11-22T11:00:00.000Z', evaluation('compliant'));
    assert.deepEqual(await latestEvaluation(db, 'crew_1', 'ves_1'), {
      asOf: '2026-11-22T11:00:00.000Z',
      evaluation: evaluation('compliant'),
    });
    assert.equal(await latestEvaluation(db, 'crew_1', 'ves_2'), undefined);
  });

  it('hits count per bucket and window, concurrent ones included; old windows are dropped', async () => {
    const db = store().db;
    const w1 = '2026-11-22T10:00:00.000Z';
    const w2 = '2026-11-22T10:01:00.000Z';
    const counts = await Promise.all(Array.from({ length: 5 }, () => countHit(db, 'partner:a', w1)));
    assert.deepEqual([...counts].sort(), [1, 2, 3, 4, 5]);
    assert.equal(await countHit(db, 'partner:b', w1), 1);
    assert.equal(await countHit(db, 'partner:a', w2, 3), 3);
    await deleteWindowsBefore(db, w2);
    assert.equal(await countHit(db, 'partner:a', w1), 1, 'the old window was dropped');
    assert.equal(await countHit(db, 'partner:a', w2), 4);
  });
});
