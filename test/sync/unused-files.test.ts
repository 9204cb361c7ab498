import { documentChange } from '../support/document-change.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { syncSummaryJson } from '../../src/cli/sync-json.ts';
import { FILES_PRUNED_AT, UNUSED_FILE_HOURS } from '../../src/services/files/unused-files.ts';
import { applyChanges, type IngestDeps } from '../../src/services/ingest/apply-changes.ts';
import { retryHeldChanges } from '../../src/services/ingest/request-changes.ts';
import { uploadFile } from '../../src/services/ingest/upload-file.ts';
import { findSetting } from '../../src/store/repositories/settings-repo.ts';
import { runSync, type SyncOptions } from '../../src/sync/run-sync.ts';
import { describeEachStore } from '../support/stores.ts';
import { testClock, testDeps } from '../support/sync-world.ts';

const HOUR = 3_600_000;
const body = (name: string) => Buffer.from(`%PDF-1.4 unused-files ${name}\n`);
/** A body as an upload's stream gives it. */
async function* chunksOf(bytes: Buffer) {
  yield bytes;
}
const sha = (name: string) => createHash('sha256').update(body(name)).digest('hex');

const lines = (...changes: object[]) => changes.map((c, i) => ({ origin: `test:${i + 1}`, text: JSON.stringify(c) }));
const crew = {
  entity: 'crew',
  op: 'upsert',
  id: 'crew_u1',
  version: 1,
  data: { name: 'Ana Upload', rank: 'Master', email: 'ana@example.com', verification_status: 'verified' },
};
/** A document of `crewId` naming an uploaded file by its SHA-256. */
const doc = (id: string, file: string, version: number, crewId = 'crew_u1') =>
  documentChange(id, crewId, version, { file_sha256: sha(file) });

describeEachStore('svc sync deletes files unused for 48 hours, once a day', ({ store }) => {
  it('an upload no change came for goes; one a document or a held change names stays; so does one replaced too recently', async () => {
    const db = store().db;
    const tc = testClock();
    const deps: IngestDeps = { clock: tc.clock, holdMs: 24 * HOUR * 7 };
    const apply = (...changes: object[]) => db.transaction().execute((trx) => applyChanges(trx, lines(...changes), deps));
    const upload = async (name: string) =>
      assert.equal((await uploadFile(db, sha(name), 'application/pdf', chunksOf(body(name)), deps)).outcome, 'created');
    const stored = async () => (await db.selectFrom('files').select('file_id').execute()).map((r) => r.file_id).sort();
    const chunks = async () => (await db.selectFrom('file_chunks').select('file_id').distinct().execute()).map((r) => r.file_id).sort();
    const sync = (options: SyncOptions = {}) => runSync(db, testDeps(tc), options);

    // alone: uploaded, never named. used: a document's. waited: a held change's (its crew member is not known yet).
    // replaced: a document's until the document took another file.
    for (const name of ['alone', 'used', 'waited', 'replaced']) await upload(name);
    const applied = await apply(crew, doc('doc_u1', 'used', 1), doc('doc_u2', 'replaced', 1), doc('doc_u3', 'waited', 1, 'crew_later'));
    assert.deepEqual(
      applied.map((r) => r.outcome),
      ['applied', 'applied', 'applied', 'held'],
    );
    assert.deepEqual(
      (await apply(doc('doc_u2', 'used', 2))).map((r) => r.outcome),
      ['applied'],
    );
    const all = ['alone', 'used', 'waited', 'replaced'].map(sha).sort();
    assert.deepEqual(await stored(), all);

    // Not yet 48 hours: nothing goes, and the day's prune is done.
    tc.advance((UNUSED_FILE_HOURS - 1) * HOUR);
    for (const options of [{ dryRun: true }, { deliverOnly: true }]) assert.equal((await sync(options)).filesPruned, 0);
    assert.equal(await findSetting(db, FILES_PRUNED_AT), undefined, 'dry and deliver-only runs do not prune');
    assert.equal((await sync()).filesPruned, 0);
    assert.deepEqual(await stored(), all);
    assert.equal(await findSetting(db, FILES_PRUNED_AT), tc.iso());

    // Past 48 hours, but the same UTC day as the last prune (the test clock starts at 10:00 UTC): they wait for the next day's first run.
    tc.advance(2 * HOUR);
    assert.equal(tc.iso().slice(0, 10), (await findSetting(db, FILES_PRUNED_AT))!.slice(0, 10));
    assert.equal((await sync()).filesPruned, 0);
    assert.equal((await stored()).length, 4);
    tc.advance(24 * HOUR);
    const pruning = await sync();
    assert.equal(pruning.filesPruned, 2);
    assert.equal((syncSummaryJson(pruning, 0).totals as Record<string, unknown>).files_pruned, 2, '--json counts them');
    const kept = ['used', 'waited'].map(sha).sort();
    assert.deepEqual(await stored(), kept);
    assert.deepEqual(await chunks(), kept, 'their chunks went with them');

    // The held change still finds its file when its crew member arrives.
    const later = await apply({ ...crew, id: 'crew_later' });
    assert.deepEqual(
      later.map((r) => r.outcome),
      ['applied'],
    );
    assert.equal((await retryHeldChanges(db, deps)).earlierHeld.applied, 1);
    const held = await db.selectFrom('documents').select('file_id').where('document_id', '=', 'doc_u3').executeTakeFirst();
    assert.equal(held?.file_id, sha('waited'));
  });

  it('a document deleted leaves its file to a held change that names it, which applies with it later', async () => {
    const db = store().db;
    const tc = testClock();
    const deps: IngestDeps = { clock: tc.clock, holdMs: 24 * HOUR * 7 };
    const apply = (...changes: object[]) => db.transaction().execute((trx) => applyChanges(trx, lines(...changes), deps));
    assert.equal((await uploadFile(db, sha('shared'), 'application/pdf', chunksOf(body('shared')), deps)).outcome, 'created');
    const applied = await apply({ ...crew, id: 'crew_h1' }, doc('doc_s1', 'shared', 1, 'crew_h1'), doc('doc_s2', 'shared', 1, 'crew_h2'));
    assert.deepEqual(
      applied.map((r) => r.outcome),
      ['applied', 'applied', 'held'],
    );

    const deleted = await apply({ entity: 'document', op: 'delete', id: 'doc_s1', version: 2 });
    assert.deepEqual(
      deleted.map((r) => r.outcome),
      ['applied'],
    );
    const kept = await db.selectFrom('files').select('file_id').where('file_id', '=', sha('shared')).executeTakeFirst();
    assert.ok(kept, 'the held change still names the file');

    await apply({ ...crew, id: 'crew_h2' });
    assert.equal((await retryHeldChanges(db, deps)).earlierHeld.applied, 1);
    const later = await db.selectFrom('documents').select('file_id').where('document_id', '=', 'doc_s2').executeTakeFirst();
    assert.equal(later?.file_id, sha('shared'));
  });
});
