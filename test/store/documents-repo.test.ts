import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { openStoredFile } from '../../src/services/files/stored-files.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { crewSignals } from '../../src/store/repositories/crew-signals-repo.ts';
import {
  documentIdsWithFiles,
  documentsByIds,
  findListableDocument,
  listListableDocuments,
} from '../../src/store/repositories/documents-repo.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { ANA_EXCLUDED, ANA_LISTED, ANA_MEDICAL, NOW, worldFixture } from '../support/read-api-world.ts';
import { wholeFile } from '../support/stored-file.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore('documents, files and crew signals in the store', ({ store }) => {
  before(async () => loadFixtures(store().db, [writeFixture(worldFixture())], () => NOW));

  it('listable: processed, current and live; by crew then document id; medical only when asked', async () => {
    const db = store().db;
    const without = await listListableDocuments(db, ['crew_ben', 'crew_ana'], false);
    assert.deepEqual(
      without.map((d) => d.documentId),
      [...ANA_LISTED, 'doc_ben'],
    );
    const withMedical = await listListableDocuments(db, ['crew_ana'], true);
    assert.deepEqual(
      withMedical.map((d) => d.documentId),
      [...ANA_LISTED, ...ANA_MEDICAL].sort(),
    );
    assert.deepEqual(await listListableDocuments(db, ['crew_nobody'], true), []);
    assert.deepEqual(await listListableDocuments(db, [], true), []);
  });

  it('one listable document: none when excluded, medical without the permission, or of another crew member', async () => {
    const db = store().db;
    const coc = await findListableDocument(db, 'crew_ana', 'doc_coc', false);
    assert.deepEqual(
      [coc?.documentId, coc?.documentClass, coc?.isCurrent, coc?.isLive, coc?.noExpiry, coc?.contentType],
      ['doc_coc', 'coc', true, true, false, 'application/pdf'],
    );
    assert.deepEqual(
      [coc?.classification.document_class, coc?.classification.category_code],
      ['coc', 'coc'],
      'the classification JSON, parsed',
    );
    for (const id of ANA_EXCLUDED) assert.equal(await findListableDocument(db, 'crew_ana', id, true), undefined, id);
    assert.equal(await findListableDocument(db, 'crew_ana', 'doc_med', false), undefined);
    assert.equal((await findListableDocument(db, 'crew_ana', 'doc_med', true))?.documentClass, 'medical');
    assert.equal(await findListableDocument(db, 'crew_ben', 'doc_coc', true), undefined);
  });

  it('by id whatever the state; which have files; a file with its bytes and content type', async () => {
    const db = store().db;
    const some = await documentsByIds(db, ['doc_old', 'doc_withdrawn', 'doc_nofile', 'doc_absent']);
    assert.deepEqual(some.map((d) => [d.documentId, d.isCurrent, d.isLive, d.supersededBy]).sort(), [
      ['doc_nofile', true, true, null],
      ['doc_old', false, true, 'doc_coc'],
      ['doc_withdrawn', true, false, null],
    ]);
    assert.equal(some.find((d) => d.documentId === 'doc_nofile')?.contentType, null, 'no file, no content type');
    assert.deepEqual(await documentsByIds(db, []), []);
    assert.deepEqual([...(await documentIdsWithFiles(db, ['doc_coc', 'doc_nofile', 'doc_absent']))], ['doc_coc']);
    assert.equal((await documentIdsWithFiles(db, [])).size, 0);
    const fileId = some.find((d) => d.documentId === 'doc_old')!.fileId!;
    const file = await openStoredFile(db, fileId);
    assert.equal(file?.contentType, 'application/pdf');
    assert.ok((await wholeFile(file)).subarray(0, 5).equals(Buffer.from('%PDF-')));
    assert.equal(await openStoredFile(db, 'file_absent'), undefined);
  });

  it('crew signals: the status fields of the crew asked for, absent crew absent', async () => {
    const signals = await crewSignals(store().db, ['crew_ana', 'crew_cho', 'crew_nobody']);
    assert.deepEqual([...signals.keys()].sort(), ['crew_ana', 'crew_cho']);
    const cho = signals.get('crew_cho')!;
    assert.deepEqual([cho.crewUniqueId, cho.backgroundCheckStatus], ['crew_cho', 'pending']);
    assert.equal(signals.get('crew_ana')?.backgroundCheckStatus, 'clear');
    assert.ok(typeof cho.verificationStatus === 'string' && !Number.isNaN(Date.parse(cho.profileUpdatedAt)));
    assert.equal((await crewSignals(store().db, [])).size, 0);
  });
});
