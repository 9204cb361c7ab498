import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { Db } from '../../src/store/database.ts';
import { apply, leaving, op, type Op } from '../support/change-ops.ts';
import { incrementalRun, seedWorld, sentDocuments, START } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * Model-based test of the documents that leave a partner's list (docs/webhooks.md, "When events
 * are sent"): after random writes, each document a partner was sent (its stored snapshot) that is
 * off its list after the run is one crew.document.updated carrying its final state when a newer
 * edition replaced it (by the row, read with SQL), and nothing when it was withdrawn, rejected or
 * sent back for processing. SVC_DIFF_RUNS=200 for a longer search.
 */
const RUNS = Number(process.env.SVC_DIFF_RUNS ?? 4);

/** The documents replaced by a newer edition, read from their rows: id → the edition that replaced it. */
async function replacedRows(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('documents')
    .select(['document_id', 'superseded_by'])
    .where('processing_state', '=', 'processed')
    .where('is_live', '=', 1)
    .where('is_current', '=', 0)
    .where('superseded_by', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.document_id, row.superseded_by!]));
}

describeEachStore("a document that leaves a partner's list", ({ store }) => {
  it('is an update with its final state when a newer edition replaced it, and silent otherwise, after random writes', async () => {
    const db = store().db;
    await seedWorld(db);
    const clock = { now: START };
    const now = () => new Date(clock.now);
    assert.equal((await incrementalRun(db, now)).events.length, 0, 'the first run records a baseline');
    const seen = { replaced: 0, silent: 0 };

    /** Applies writes, then runs the sync and compares what it sent about documents off the lists with the model. */
    const step = async (...writes: Op[]) => {
      const before = await sentDocuments(db);
      for (const o of writes) await apply(db, o, clock);
      const run = await incrementalRun(db, now);
      const after = await sentDocuments(db);
      const replaced = await replacedRows(db);
      const expected: string[] = [];
      for (const [pair, docs] of before) {
        const still = after.get(pair);
        // A pair no longer shown documents (consent, scope, fleet) is told nothing about them.
        if (!still) continue;
        for (const doc of docs) {
          if (still.has(doc)) continue;
          if (replaced.has(doc)) expected.push(JSON.stringify([...pair.split('|'), doc, replaced.get(doc)]));
          seen[replaced.has(doc) ? 'replaced' : 'silent']++;
        }
      }
      const actual = run.events
        .map((key) => JSON.parse(key) as [string, string, string, Record<string, unknown>])
        .filter(
          ([partner, type, crew, data]) =>
            type.startsWith('crew.document.') && !after.get(`${partner}|${crew}`)?.has(data.document_id as string),
        )
        .map(([partner, type, crew, data]) => {
          assert.equal(type, 'crew.document.updated', `a document off the list is only ever updated: ${JSON.stringify(data)}`);
          assert.deepEqual([data.status, data.is_current], ['superseded', false], 'its final state');
          return JSON.stringify([partner, crew, data.document_id, data.superseded_by]);
        });
      assert.deepEqual(actual.sort(), expected.sort(), `after ${JSON.stringify(writes)}`);
    };

    // Documents ptn_mgmt was sent (crew_2 on ves_b, every consent): one replaced, one withdrawn, one
    // replaced and rejected between two runs (silent: a rejected edition is not sent); then random writes.
    const ids = (await db.selectFrom('documents').select('document_id').orderBy('document_id').execute()).map((row) => row.document_id);
    const doc = (id: string) => ids.indexOf(id);
    await step({ kind: 'replace', doc: doc('doc_crew_2_3'), days: 300 });
    await step({ kind: 'withdraw', doc: doc('doc_crew_2_2'), how: 'rejected' });
    await step({ kind: 'replace', doc: doc('doc_crew_2_4'), days: 300 }, { kind: 'withdraw', doc: doc('doc_crew_2_4'), how: 'rejected' });
    assert.ok(seen.replaced > 0 && seen.silent > 1, 'the scripted steps replaced one document and withdrew two');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(leaving, op), { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const o of ops) await step(o);
      }),
      { numRuns: RUNS },
    );
  });
});
