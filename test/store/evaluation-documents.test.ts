import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { EvaluationDocument } from '../../src/domain/compliance/types.ts';
import { PROCESSING_STATES, REVIEW_STATUSES, VERIFICATION_STATUSES } from '../../src/domain/vocabulary.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import {
  crewEvaluationDocuments,
  listEvaluationDocuments,
  listListableDocuments,
  type EvaluationDocumentWithFile,
} from '../../src/store/repositories/documents-repo.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { NOW } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * The evaluator's read of documents (on SQLite one JSON array made by the store, on Postgres rows)
 * against the obvious path, listListableDocuments with every column and medical documents, on
 * generated documents: every state, flags, dates and titles in any script, quotes and escapes.
 */
const CLASSES = ['coc', 'medical', 'training', 'identity', 'endorsement'] as const;
const dateArb = fc.option(
  fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);

const docArb = fc.record({
  crew: fc.integer({ min: 0, max: 3 }),
  title: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((t) => !t.includes('\u0000')),
  verification: fc.constantFrom(...VERIFICATION_STATUSES),
  review: fc.constantFrom(...REVIEW_STATUSES),
  issue: dateArb,
  expiry: dateArb,
  noExpiry: fc.boolean(),
  state: fc.constantFrom('processed', 'processed', ...PROCESSING_STATES),
  current: fc.constantFrom(true, true, false),
  live: fc.constantFrom(true, true, false),
  documentClass: fc.constantFrom(...CLASSES),
  codes: fc.subarray(['A-VI/1-1', 'A-VI/1-2', 'A-\\"VI"']),
  withFile: fc.boolean(),
});

const byId = (a: EvaluationDocument, b: EvaluationDocument) => (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0);

describeEachStore("the evaluator's documents against every column of the listable documents", ({ store }) => {
  let run = 0;

  it('gives the same documents and values, medical ones included, for any crew asked', async () => {
    const db = store().db;
    let listed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(docArb, { maxLength: 12 }), fc.subarray([0, 1, 2, 3, 4]), async (docs, asked) => {
        const prefix = `ev${++run}`;
        await loadFixtures(
          db,
          [
            writeFixture({
              crew: [0, 1, 2, 3].map((i) => ({ crew_unique_id: `${prefix}_c${i}`, name: `Crew ${i}` })),
              documents: docs.map((d, k) => ({
                document_id: `${prefix}_d${k}`,
                crew_unique_id: `${prefix}_c${d.crew}`,
                type: 'certificate',
                category: d.documentClass,
                title: d.title,
                verification_status: d.verification,
                review_status: d.review,
                issue_date: d.issue,
                expiry_date: d.expiry,
                no_expiry: d.expiry === null && d.noExpiry,
                processing_state: d.state,
                is_current: d.current,
                is_live: d.live,
                ...(d.withFile ? { file: 'files/doc.pdf' } : {}),
                classification: {
                  document_class: d.documentClass,
                  category_code: d.documentClass,
                  ...(d.codes.length > 0 ? { stcw_codes: d.codes } : {}),
                },
              })),
            }),
          ],
          () => NOW,
        );
        // Crew 4 has no row at all.
        const ids = asked.map((i) => `${prefix}_c${i}`);
        const fast = [...(await listEvaluationDocuments(db, ids))].sort(byId);
        const slow = (await listListableDocuments(db, ids, true))
          .map((d): EvaluationDocument => ({
            documentId: d.documentId,
            crewUniqueId: d.crewUniqueId,
            title: d.title,
            verificationStatus: d.verificationStatus,
            reviewStatus: d.reviewStatus,
            issueDate: d.issueDate,
            expiryDate: d.expiryDate,
            noExpiry: d.noExpiry,
            processingState: d.processingState,
            isCurrent: d.isCurrent,
            isLive: d.isLive,
            documentClass: d.documentClass,
            classification: d.classification,
          }))
          .sort(byId);
        assert.deepEqual(fast, slow);
        listed += fast.length;
        // The compliance check's read of one crew member: the same documents, with their files.
        for (const id of ids) {
          const one = [...(await crewEvaluationDocuments(db, id))].sort(byId);
          const obvious = (await listListableDocuments(db, [id], true)).map((d): EvaluationDocumentWithFile => ({
            ...slow.find((e) => e.documentId === d.documentId)!,
            fileId: d.fileId,
          }));
          assert.deepEqual(one, obvious.sort(byId));
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 25) },
    );
    assert.ok(listed > 0, 'some generated documents are listable');
  });

  it('reads no crew at all as no documents, and a list longer than one statement takes', async () => {
    const db = store().db;
    assert.deepEqual(await listEvaluationDocuments(db, []), []);
    assert.deepEqual(await crewEvaluationDocuments(db, 'nobody_at_all'), []);
    const ids = Array.from({ length: 4500 }, (_, i) => `nobody_${i}`);
    await loadFixtures(
      db,
      [
        writeFixture({
          crew: [{ crew_unique_id: 'nobody_4499', name: 'Last' }],
          documents: [
            {
              document_id: 'last_doc',
              crew_unique_id: 'nobody_4499',
              type: 'certificate',
              category: 'training',
              title: 'Last',
              verification_status: 'verified',
              classification: { document_class: 'training', category_code: 'bst' },
            },
          ],
        }),
      ],
      () => NOW,
    );
    assert.deepEqual(
      (await listEvaluationDocuments(db, ids)).map((d) => d.documentId),
      ['last_doc'],
    );
  });

  it("gives the compliance check a document's file, and none where there is none", async () => {
    const db = store().db;
    const doc = (id: string, file: boolean) => ({
      document_id: id,
      crew_unique_id: 'filed_crew',
      type: 'certificate',
      category: 'training',
      title: id,
      verification_status: 'verified',
      ...(file ? { file: 'files/doc.pdf' } : {}),
      classification: { document_class: 'training', category_code: 'bst' },
    });
    await loadFixtures(
      db,
      [writeFixture({ crew: [{ crew_unique_id: 'filed_crew', name: 'Filed' }], documents: [doc('filed_a', true), doc('filed_b', false)] })],
      () => NOW,
    );
    const files = (await crewEvaluationDocuments(db, 'filed_crew')).map((d) => [d.documentId, d.fileId] as const).sort();
    const obvious = (await listListableDocuments(db, ['filed_crew'], true)).map((d) => [d.documentId, d.fileId] as const);
    assert.deepEqual(files, obvious);
    assert.equal(typeof files[0]![1], 'string');
    assert.equal(files[1]![1], null);
  });
});
