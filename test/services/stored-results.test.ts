import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ComplianceEvaluation } from '../../src/domain/compliance/index.ts';
import { createResultWriter, storedResults } from '../../src/services/compliance/stored-results.ts';
import { describeEachStore } from '../support/stores.ts';

const evaluation = (overall: string) => ({ overall, requirements: [] }) as unknown as ComplianceEvaluation;

describeEachStore('compliance results written behind the call', ({ store }) => {
  it('the writer answers with its newest result at once; the store has it once written, and never an older one over a newer', async () => {
    const db = store().db;
    const writer = createResultWriter(db, { intervalMs: 60_000 });
    const elsewhere = storedResults(db);
    try {
      await elsewhere.save('crew_1', 'ves_1', '2026-11-22T09:00:00.000Z', evaluation('non_compliant'));
      await writer.save('crew_1', 'ves_1', '2026-11-22T10:00:00.000Z', evaluation('at_risk'));
      await writer.save('crew_1', 'ves_1', '2026-11-22T11:00:00.000Z', evaluation('compliant'));
      await writer.save('crew_1', 'ves_1', '2026-11-22T10:30:00.000Z', evaluation('late answer of an earlier check'));
      await writer.save('crew_2', 'ves_1', '2026-11-22T11:00:00.000Z', evaluation('at_risk'));
      assert.equal(writer.backlog, 2, 'one result per crew member and vessel waits');
      assert.deepEqual(await writer.latest('crew_1', 'ves_1'), { asOf: '2026-11-22T11:00:00.000Z', evaluation: evaluation('compliant') });
      assert.equal((await elsewhere.latest('crew_1', 'ves_1'))?.asOf, '2026-11-22T09:00:00.000Z', 'not written yet');
      assert.equal(await elsewhere.latest('crew_2', 'ves_1'), undefined);
      await writer.flush();
      assert.equal(writer.backlog, 0);
      assert.deepEqual(await elsewhere.latest('crew_1', 'ves_1'), { asOf: '2026-11-22T11:00:00.000Z', evaluation: evaluation('compliant') });
      assert.equal((await elsewhere.latest('crew_2', 'ves_1'))?.asOf, '2026-11-22T11:00:00.000Z');
      // Another process wrote a newer result meanwhile: an older one written later does not replace it.
      await elsewhere.save('crew_2', 'ves_1', '2026-11-22T12:00:00.000Z', evaluation('non_compliant'));
      await writer.save('crew_2', 'ves_1', '2026-11-22T11:30:00.000Z', evaluation('compliant'));
      await writer.close();
      assert.equal((await elsewhere.latest('crew_2', 'ves_1'))?.asOf, '2026-11-22T12:00:00.000Z');
    } finally {
      await writer.close();
    }
  });
});
