import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { FILE_CHUNK_BYTES } from '../../src/services/files/stored-files.ts';
import { cli } from '../support/cli.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A PDF of several chunks and a bit: its last chunk is short. */
const largePdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(4 * FILE_CHUNK_BYTES + 1000), Buffer.from('\n%%EOF\n')]);
const chunksOf = (bytes: Buffer) => Math.ceil(bytes.length / FILE_CHUNK_BYTES);

const documentChange = (id: string, crew: string, version: number, file: { file?: string; file_sha256?: string }) =>
  JSON.stringify({
    entity: 'document',
    op: 'upsert',
    id,
    version,
    data: {
      crew_unique_id: crew,
      type: 'certificate',
      category: 'training',
      title: 'A long scan',
      verification_status: 'verified',
      issue_date: '2025-01-01',
      expiry_date: '2030-01-01',
      classification: { document_class: 'training', category_code: 'bst' },
      ...file,
    },
  });

/** Sends the head of a PUT declaring all of `bytes`, then half of them, then drops the connection. */
function cutUpload(url: string, key: string, sha: string, bytes: Buffer): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `PUT /api/v2/admin/files/${sha} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/pdf\r\n` +
          `Content-Length: ${bytes.length}\r\n\r\n`,
      );
      socket.write(bytes.subarray(0, bytes.length >> 1), () => socket.destroy());
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve());
  });
}

describeEachWorld('files of several chunks, stored and sent a chunk at a time', (w, { url }) => {
  const folder = mkdtempSync(join(tmpdir(), 'svc-chunked-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  const chunkCount = async (fileId: string) =>
    Number(
      (
        await w.db
          .selectFrom('file_chunks')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('file_id', '=', fileId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const fileRow = (id: string) => w.db.selectFrom('files').select(['file_id', 'size']).where('file_id', '=', id).executeTakeFirst();
  const download = async (crew: string, documentId: string) => {
    const link = await w.api.get(`/api/v2/employers/me/crew/${crew}/documents/${documentId}/download`, { key: w.keys.full });
    assert.equal(link.status, 200, JSON.stringify(link.json));
    return w.api.get(new URL(link.json.download_url).pathname);
  };
  const postDocument = async (documentId: string, sha: string) => {
    const applied = await w.api.request('POST', '/api/v2/admin/changes', {
      key: w.keys.operator,
      body: documentChange(documentId, 'crew_ana', 1, { file_sha256: sha }),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    assert.equal(applied.json.results[0].outcome, 'applied', JSON.stringify(applied.json));
  };
  const ingest = async (lines: string[]) => {
    const path = join(folder, `changes-${randomBytes(4).toString('hex')}.ndjson`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    const run = await cli(['ingest', path, '--files', folder, '--json'], { SVC_DATABASE_URL: url() });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  };

  it('svc ingest --files stores a file in chunks, and the download link sends it back byte for byte with its length', async () => {
    const bytes = largePdf();
    writeFileSync(join(folder, 'scan.pdf'), bytes);
    await ingest([documentChange('doc_chunked', 'crew_ana', 1, { file: 'scan.pdf' })]);
    assert.deepEqual(await fileRow(sha256(bytes)), { file_id: sha256(bytes), size: bytes.length });
    assert.equal(await chunkCount(sha256(bytes)), chunksOf(bytes));
    const got = await download('crew_ana', 'doc_chunked');
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-length'), String(bytes.length));
    assert.ok(got.bytes.equals(bytes), 'the same bytes');
  });

  it('erasing a crew member deletes the chunks of their files; a file another document shares stays whole', async () => {
    const own = largePdf();
    const shared = largePdf();
    writeFileSync(join(folder, 'own.pdf'), own);
    writeFileSync(join(folder, 'shared.pdf'), shared);
    await ingest([
      JSON.stringify({ entity: 'crew', op: 'upsert', id: 'crew_erased', version: 1, data: { name: 'Soon Gone' } }),
      documentChange('doc_own', 'crew_erased', 1, { file: 'own.pdf' }),
      documentChange('doc_shared', 'crew_erased', 1, { file: 'shared.pdf' }),
      documentChange('doc_shared_ana', 'crew_ana', 1, { file_sha256: sha256(shared) }),
    ]);
    assert.equal(await chunkCount(sha256(own)), chunksOf(own));
    await ingest([JSON.stringify({ entity: 'crew', op: 'delete', id: 'crew_erased', version: 2 })]);
    assert.equal(await fileRow(sha256(own)), undefined);
    assert.equal(await chunkCount(sha256(own)), 0, 'no chunk of the erased file is left');
    assert.equal(await chunkCount(sha256(shared)), chunksOf(shared));
    assert.ok((await download('crew_ana', 'doc_shared_ana')).bytes.equals(shared));
  });

  it('an upload is stored in chunks and downloads byte for byte; a wrong SHA-256 or a cut connection stores nothing', async () => {
    const bytes = largePdf();
    const sha = sha256(bytes);
    const put = (path: string, body: Buffer) =>
      w.api.request('PUT', `/api/v2/admin/files/${path}`, {
        key: w.keys.operator,
        body,
        headers: { 'Content-Type': 'application/pdf' },
      });
    const allChunks = async () =>
      Number(
        (
          await w.db
            .selectFrom('file_chunks')
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const chunksBefore = await allChunks();
    const wrong = sha256(Buffer.from('another file'));
    assert.equal((await put(wrong, bytes)).status, 422);
    assert.equal(await fileRow(wrong), undefined);
    assert.equal(await allChunks(), chunksBefore, 'no chunk of the refused file is left');

    await cutUpload(w.api.url, w.keys.operator, sha, bytes);
    const stored = await put(sha, bytes);
    assert.equal(stored.status, 201, 'the cut upload left nothing: this one creates the file');
    assert.equal(stored.json.size, bytes.length);
    assert.equal(await chunkCount(sha), chunksOf(bytes));
    await postDocument('doc_uploaded', sha);
    const got = await download('crew_ana', 'doc_uploaded');
    assert.equal(got.headers.get('content-length'), String(bytes.length));
    assert.ok(got.bytes.equals(bytes), 'the same bytes');
  });

  it('a file stored before chunks, its bytes in files.bytes, still downloads whole', async () => {
    const bytes = Buffer.from('%PDF-1.4\n% stored before chunks\n%%EOF\n');
    const sha = sha256(bytes);
    await w.db.insertInto('files').values({ file_id: sha, content_type: 'application/pdf', size: bytes.length, bytes }).execute();
    await postDocument('doc_unchunked', sha);
    const got = await download('crew_ana', 'doc_unchunked');
    assert.equal(got.headers.get('content-length'), String(bytes.length));
    assert.ok(got.bytes.equals(bytes), 'the same bytes');
  });
});
