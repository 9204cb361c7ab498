import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FILE_CHUNK_BYTES, openStoredFile } from '../../src/services/files/stored-files.ts';
import { folderFiles, type FileSource } from '../../src/services/ingest/file-source.ts';
import { ingestStream } from '../../src/services/ingest/ingest-stream.ts';
import { describeEachStore } from '../support/stores.ts';

const MIB = 1024 * 1024;
const T0 = '2026-11-22T10:00:00.000Z';

/**
 * The garbage collector, called to measure what is really held rather than what is not collected
 * yet; array buffers are swept with the collection, not later on a background thread that a busy
 * machine may starve.
 */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  setFlagsFromString('--no-concurrent-array-buffer-sweeping');
  return runInNewContext('gc') as () => void;
}

/** Array buffers (Buffers) still held after two collections with a turn of the event loop between. */
async function heldBuffers(gc: () => void): Promise<number> {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  return process.memoryUsage().arrayBuffers;
}

describeEachStore('a large file is ingested and read back without being held whole in memory', ({ store }) => {
  const folder = mkdtempSync(join(tmpdir(), 'svc-file-memory-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('ingesting a 20 MiB file and reading it back hold well under 20 MiB of buffers at any chunk', async () => {
    const gc = collector();
    const hash = createHash('sha256');
    appendFileSync(join(folder, 'large.pdf'), '%PDF-1.4\n');
    hash.update('%PDF-1.4\n');
    for (let i = 0; i < (20 * MIB) / FILE_CHUNK_BYTES; i++) {
      const part = randomBytes(FILE_CHUNK_BYTES);
      appendFileSync(join(folder, 'large.pdf'), part);
      hash.update(part);
    }
    const fileId = hash.digest('hex');
    const baseline = await heldBuffers(gc);
    let peak = baseline;
    const sample = async () => void (peak = Math.max(peak, await heldBuffers(gc)));
    // The folder reader, measured at each chunk it hands to the store.
    const folderReader = folderFiles(folder);
    const files: FileSource = {
      async read(path) {
        const file = await folderReader.read(path);
        if ('problem' in file) return file;
        return {
          ...file,
          async *chunks() {
            for await (const chunk of file.chunks()) {
              yield chunk;
              await sample();
            }
          },
        };
      },
    };
    const changes = [
      { entity: 'crew', op: 'upsert', id: 'crew_mem', version: 1, data: { name: 'Large Scan' } },
      {
        entity: 'document',
        op: 'upsert',
        id: 'doc_mem',
        version: 1,
        data: {
          crew_unique_id: 'crew_mem',
          type: 'certificate',
          category: 'training',
          title: 'A 20 MiB scan',
          verification_status: 'verified',
          classification: { document_class: 'training', category_code: 'bst' },
          file: 'large.pdf',
        },
      },
    ].map((c, i) => ({ origin: `test:${i + 1}`, text: JSON.stringify(c) }));
    const summary = await ingestStream(
      store().db,
      (async function* () {
        yield* changes;
      })(),
      { clock: () => new Date(T0), holdMs: 3_600_000, files },
    );
    assert.equal(summary.counts.applied, 2, JSON.stringify(summary));
    await sample();

    const stored = await openStoredFile(store().db, fileId);
    assert.equal(stored?.size, 20 * MIB + 9);
    const readBack = createHash('sha256');
    let read = 0;
    for await (const chunk of stored.chunks()) {
      readBack.update(chunk);
      read += chunk.length;
      await sample();
    }
    assert.deepEqual([read, readBack.digest('hex')], [20 * MIB + 9, fileId], 'read back whole and the same');
    const grown = peak - baseline;
    assert.ok(grown < 8 * MIB, `buffers held grew by ${(grown / MIB).toFixed(1)} MiB for a 20 MiB file`);
  });
});
