import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { Db } from '../../src/store/database.ts';
import { apply, op, type Op } from '../support/change-ops.ts';
import { documentRow, fullDiffEvents, incrementalRun, seedWorld, sentDocuments, START } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * crew.document.processed fires when processing and verification complete (docs/contract.md):
 * a processed document is first sent once its verification_status is no longer pending, and one
 * sent stays sent (docs/decisions.md, "Sync"). crew_2 of the change world is on ptn_mgmt's fleet
 * with every consent. SVC_DIFF_RUNS=200 for a longer search of the model test.
 */
const RUNS = Number(process.env.SVC_DIFF_RUNS ?? 4);
const now = () => new Date(START);

/** What ptn_mgmt was sent about one document by a run: [event type, verification_status]. */
function sentAbout(events: string[], documentId: string): Array<[string, unknown]> {
  return events
    .map((key) => JSON.parse(key) as [string, string, string, Record<string, unknown>])
    .filter(([partner, , , data]) => partner === 'ptn_mgmt' && data.document_id === documentId)
    .map(([, type, , data]) => [type, data.verification_status]);
}

/** Sets a document's verification, then runs the sync; the events it created, which a full re-diff agrees with. */
async function verify(db: Db, documentId: string, status: 'pending' | 'verified' | 'unverified'): Promise<string[]> {
  await db.updateTable('documents').set({ verification_status: status }).where('document_id', '=', documentId).execute();
  const expected = await fullDiffEvents(db, now);
  const run = await incrementalRun(db, now);
  assert.deepEqual(run.events, expected, 'the incremental run creates what a full re-diff would');
  return run.events;
}

describeEachStore('a document is announced once its verification is complete', ({ store }) => {
  it('processed and pending: no event; verified: crew.document.processed; back to pending and on: updates, never announced again', async () => {
    const db = store().db;
    await seedWorld(db);
    assert.deepEqual((await incrementalRun(db, now)).events, [], 'the first run records a baseline');
    await db
      .insertInto('documents')
      .values({ ...documentRow('doc_wait', 'crew_2', 3, null, START), verification_status: 'pending' })
      .execute();

    assert.deepEqual(sentAbout(await verify(db, 'doc_wait', 'pending'), 'doc_wait'), [], 'processed but pending: nothing yet');
    assert.deepEqual(sentAbout((await incrementalRun(db, now)).events, 'doc_wait'), [], 'nor at the next run');
    assert.deepEqual(sentAbout(await verify(db, 'doc_wait', 'verified'), 'doc_wait'), [['crew.document.processed', 'verified']]);
    assert.deepEqual(
      sentAbout(await verify(db, 'doc_wait', 'pending'), 'doc_wait'),
      [['crew.document.updated', 'pending']],
      'announced stays announced: re-verification is a change to it, not a removal',
    );
    assert.deepEqual(sentAbout(await verify(db, 'doc_wait', 'unverified'), 'doc_wait'), [['crew.document.updated', 'unverified']]);
    assert.deepEqual(sentAbout((await incrementalRun(db, now, { full: true })).events, 'doc_wait'), [], 'a full run sends nothing more');
  });
});

describeEachStore('a document whose verification completes as unverified is announced', ({ store }) => {
  it('processed and pending, then unverified: crew.document.processed with unverified', async () => {
    const db = store().db;
    await seedWorld(db);
    assert.deepEqual((await incrementalRun(db, now)).events, [], 'the first run records a baseline');
    await db
      .insertInto('documents')
      .values({ ...documentRow('doc_refused', 'crew_2', 5, '2028-01-01', START), verification_status: 'pending' })
      .execute();
    assert.deepEqual(sentAbout(await verify(db, 'doc_refused', 'pending'), 'doc_refused'), []);
    assert.deepEqual(sentAbout(await verify(db, 'doc_refused', 'unverified'), 'doc_refused'), [['crew.document.processed', 'unverified']]);
  });
});

describeEachStore('documents announced after random writes', ({ store }) => {
  it('a pair shown documents holds each listed one it was sent, and of the others those whose verification is complete; none is announced pending', async () => {
    const db = store().db;
    await seedWorld(db);
    const clock = { now: START };
    const runNow = () => new Date(clock.now);
    assert.deepEqual((await incrementalRun(db, runNow)).events, [], 'the first run records a baseline');
    const seen = { waiting: 0, kept: 0 };
    const step = async (o: Op) => {
      const before = await sentDocuments(db);
      await apply(db, o, clock);
      const run = await incrementalRun(db, runNow);
      for (const key of run.events) {
        const [, type, , data] = JSON.parse(key) as [string, string, string, Record<string, unknown>];
        if (type === 'crew.document.processed')
          assert.notEqual(data.verification_status, 'pending', `announced pending after ${JSON.stringify(o)}`);
      }
      // The listed documents, by the rows (medical-class ones left out: whether a partner sees them depends on its scopes).
      const listed = await db
        .selectFrom('documents')
        .select(['document_id', 'crew_unique_id', 'verification_status'])
        .where('processing_state', '=', 'processed')
        .where('is_current', '=', 1)
        .where('is_live', '=', 1)
        .where('document_class', '!=', 'medical')
        .execute();
      for (const [pair, shown] of await sentDocuments(db)) {
        const crew = pair.split('|')[1];
        for (const doc of listed.filter((row) => row.crew_unique_id === crew)) {
          const sent = before.get(pair)?.has(doc.document_id) ?? false;
          const expected = sent || doc.verification_status !== 'pending';
          assert.equal(
            shown.has(doc.document_id),
            expected,
            `${pair} ${doc.document_id} (${doc.verification_status}, sent: ${sent}) after ${JSON.stringify(o)}`,
          );
          if (doc.verification_status === 'pending') seen[sent ? 'kept' : 'waiting']++;
        }
      }
    };

    // A document sent goes back to pending, one new arrives pending; then random writes.
    const ids = (await db.selectFrom('documents').select('document_id').orderBy('document_id').execute()).map((row) => row.document_id);
    await step({ kind: 'reverify', doc: ids.indexOf('doc_crew_2_3'), verification: 'pending', review: 'pending' });
    await step({ kind: 'add-document', crew: 1, code: 3, days: 100, verification: 'pending' });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const o of ops) await step(o);
      }),
      { numRuns: RUNS },
    );
    assert.ok(seen.waiting > 0 && seen.kept > 0, `pending documents waited, and sent ones went back to pending: ${JSON.stringify(seen)}`);
  });
});
