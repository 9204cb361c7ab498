import { documentChange } from '../support/document-change.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { applyChanges, type Incoming } from '../../src/services/ingest/apply-changes.ts';
import { folderFiles } from '../../src/services/ingest/file-source.ts';
import { ingestStream } from '../../src/services/ingest/ingest-stream.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * What a change's file leaves behind (docs/ingest.md, "Files"): a file read for a change that is
 * rejected or held is not kept, unless an applied change uses it or the store held it before.
 */

const T0 = '2026-11-22T10:00:00.000Z';
const HOUR = 3_600_000;
const FILES = ['a.pdf', 'b.pdf', 'c.pdf'] as const;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const fileText = (name: string) => `%PDF-1.4 ingest-files ${name}\n`;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-ingest-files-'));
  for (const name of FILES) writeFileSync(join(dir, name), fileText(name));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const lines = (...changes: object[]): Incoming[] => changes.map((c, i) => ({ origin: `test:${i + 1}`, text: JSON.stringify(c) }));
async function* stream(items: Incoming[]) {
  yield* items;
}

const parents = () => [
  { entity: 'employer', op: 'upsert', id: 'emp_f', version: 1, data: { name: 'File Shipping' } },
  {
    entity: 'crew',
    op: 'upsert',
    id: 'crew_f1',
    version: 1,
    data: { name: 'Ana File', rank: 'Master', email: 'ana@example.com', verification_status: 'verified' },
  },
];
/** A document of crew member `crew` with file `file`; `valid: false` gives it an impossible issue date. */
const doc = (id: string, file: string, version: number, options: { crew?: string; valid?: boolean } = {}) =>
  documentChange(id, options.crew ?? 'crew_f1', version, { file, ...(options.valid === false ? { issue_date: '2025-02-30' } : {}) });

describeEachStore(
  'ingest: files of rejected and held changes are not kept',
  ({ store }) => {
    const db = () => store().db;
    const deps = (at = T0) => ({ clock: () => new Date(at), holdMs: 24 * HOUR, files: folderFiles(dir) });
    const apply = (items: Incoming[], at = T0) =>
      db()
        .transaction()
        .execute((trx) => applyChanges(trx, items, deps(at)));
    const storedFiles = async () => (await db().selectFrom('files').select('file_id').execute()).map((r) => r.file_id).sort();
    const chunksOf = async (id: string) => (await db().selectFrom('file_chunks').select('seq').where('file_id', '=', id).execute()).length;

    it('a rejected document leaves no file; one an applied change in the same batch uses stays', async () => {
      const results = await apply(lines(...parents(), doc('doc_bad', 'a.pdf', 1, { valid: false })));
      assert.deepEqual(
        results.map((r) => r.outcome),
        ['applied', 'applied', 'rejected'],
      );
      assert.deepEqual(await storedFiles(), []);
      assert.equal(await chunksOf(sha(fileText('a.pdf'))), 0);

      const mixed = await apply(lines(doc('doc_bad', 'b.pdf', 2, { valid: false }), doc('doc_ok', 'b.pdf', 1)));
      assert.deepEqual(
        mixed.map((r) => r.outcome),
        ['rejected', 'applied'],
      );
      assert.deepEqual(await storedFiles(), [sha(fileText('b.pdf'))]);
    });

    it('a held document keeps no file; applied once its crew member arrives, it stores its file then; given up, it leaves none', async () => {
      await apply(lines(...parents()));
      const held = await ingestStream(db(), stream(lines(doc('doc_late', 'a.pdf', 1, { crew: 'crew_late' }))), deps());
      assert.deepEqual([held.counts.held, held.waiting], [1, 1]);
      assert.deepEqual(await storedFiles(), []);

      const crewLate = { ...parents()[1]!, id: 'crew_late' };
      const later = await ingestStream(db(), stream(lines(crewLate)), deps());
      assert.deepEqual([later.earlierHeld.applied, later.waiting], [1, 0]);
      assert.deepEqual(await storedFiles(), [sha(fileText('a.pdf'))]);

      await ingestStream(db(), stream(lines(doc('doc_never', 'c.pdf', 1, { crew: 'crew_never' }))), deps());
      const expired = await ingestStream(db(), stream([]), deps(new Date(Date.parse(T0) + 25 * HOUR).toISOString()));
      assert.deepEqual([expired.earlierHeld.rejected, expired.waiting], [1, 0]);
      assert.deepEqual(await storedFiles(), [sha(fileText('a.pdf'))]);
    });

    it('whatever mix of valid, invalid and held documents batches bring, no file stays that only rejected or held ones named', async () => {
      await apply(lines(...parents()));
      // A document upserted again with another file leaves its earlier file (svc sync prunes it): the model keeps every file an applied document named.
      const applied = new Set<string>();
      const change = fc.record({
        id: fc.constantFrom('doc_p1', 'doc_p2', 'doc_p3'),
        file: fc.constantFrom(...FILES),
        kind: fc.constantFrom('valid', 'invalid', 'held'),
      });
      let version = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
          const results = await apply(
            lines(
              ...changes.map((c) =>
                doc(c.id, c.file, ++version, { valid: c.kind !== 'invalid', ...(c.kind === 'held' ? { crew: 'crew_absent' } : {}) }),
              ),
            ),
          );
          assert.deepEqual(
            results.map((r) => r.outcome),
            changes.map((c) => ({ valid: 'applied', invalid: 'rejected', held: 'held' })[c.kind]),
          );
          for (const c of changes) if (c.kind === 'valid') applied.add(sha(fileText(c.file)));
          const stored = await storedFiles();
          assert.deepEqual(
            stored.filter((f) => !applied.has(f)),
            [],
            'files only rejected or held changes named',
          );
          const used = await db().selectFrom('documents').select('file_id').where('file_id', 'is not', null).execute();
          assert.deepEqual(
            used.filter((u) => !stored.includes(u.file_id!)),
            [],
            'every document has its file',
          );
        }),
        { numRuns: 25 },
      );
    });
  },
  { storePerTest: true },
);
