import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isValidImo, isValidMmsi } from '../../src/domain/identifiers.ts';
import { generateData } from '../../src/services/generate/generate-data.ts';
import { countReferenceRows } from '../../src/store/repositories/reference-data-repo.ts';
import { describeEachStore } from '../support/stores.ts';

const clock = () => new Date('2026-11-22T10:00:00.000Z');
const options = { crew: 300, vessels: 12, partners: 6, docsPerCrew: 8, seed: 7, batchSize: 100 };

describeEachStore('generating a data set at scale', ({ store }) => {
  it('writes the requested counts in batches, reporting progress', async () => {
    const progress: number[] = [];
    const counts = await generateData(store().db, { ...options, onProgress: (done) => progress.push(done) }, clock);
    assert.deepEqual(progress, [100, 200, 300]);
    const rows = await countReferenceRows(store().db);
    assert.equal(rows.crew, 300);
    assert.equal(rows.vessels, 12);
    assert.equal(rows.partners, 6);
    assert.equal(rows.documents, 2400);
    assert.equal(counts.documents, 2400);
    assert.ok((rows.contract_vessels ?? 0) > 0, 'the external partner has a contract');
  });

  it('gives valid identifiers and every document case', async () => {
    await generateData(store().db, options, clock);
    const vessels = await store().db.selectFrom('vessels').select(['imo', 'mmsi', 'is_test']).execute();
    assert.ok(vessels.every((v) => isValidImo(v.imo!) && isValidMmsi(v.mmsi!)));
    assert.ok(vessels.some((v) => v.is_test === 1) && vessels.some((v) => v.is_test === 0));
    const states = new Set((await store().db.selectFrom('documents').select('processing_state').execute()).map((d) => d.processing_state));
    for (const s of ['processed', 'processing', 'rejected', 'duplicate', 'placeholder', 'legacy']) assert.ok(states.has(s as never), s);
    const superseded = await store().db.selectFrom('documents').select('superseded_by').where('is_current', '=', 0).execute();
    assert.ok(superseded.length > 0 && superseded.every((d) => d.superseded_by));
  });

  it('is deterministic: the same seed rewrites the same rows', async () => {
    const read = async () => JSON.stringify(await store().db.selectFrom('documents').selectAll().orderBy('document_id').execute());
    await generateData(store().db, options, clock);
    const before = await read();
    await generateData(store().db, options, clock);
    assert.equal(await read(), before);
  });
});
