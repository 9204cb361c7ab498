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
      assert.deepEqual(await elsewhere.latest('crew_1', 'ves_1'), {
        asOf: '2026-11-22T11:00:00.000Z',
        evaluation: evaluation('compliant'),
      });
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
  it('a write takes the results waiting when it began; one saved meanwhile waits for the next tick', async () => {
    let tick = () => {};
    let writes = 0;
    let done = () => {};
    const written = new Promise<void>((resolve) => (done = resolve));
    // Under load checks keep saving results while a write is under way: one arrives during the first write.
    const writer = createResultWriter(
      store().db.withPlugin({
        transformQuery({ node }) {
          if (node.kind === 'InsertQueryNode' && ++writes === 1)
            void writer.save('crew_t', 'ves_1', '2026-11-22T10:00:01.000Z', evaluation('compliant'));
          return node;
        },
        async transformResult({ result }) {
          done();
          return result;
        },
      }),
      {
        schedule: (t) => {
          tick = t;
          return () => {};
        },
      },
    );
    const elsewhere = storedResults(store().db);
    try {
      await writer.save('crew_t', 'ves_1', '2026-11-22T10:00:00.000Z', evaluation('at_risk'));
      tick();
      await written;
      // Whatever the write does next (another statement, say) has started by then.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(writes, 1, 'one statement per tick');
      assert.equal((await elsewhere.latest('crew_t', 'ves_1'))?.asOf, '2026-11-22T10:00:00.000Z');
      assert.equal(writer.backlog, 1, 'the result saved during the write waits');
      await writer.close();
      assert.equal((await elsewhere.latest('crew_t', 'ves_1'))?.asOf, '2026-11-22T10:00:01.000Z', 'closing writes it');
    } finally {
      await writer.close();
    }
  });
});
