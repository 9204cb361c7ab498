import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { expectError } from '../support/expect.ts';
import { parseRawResponse, rawExchange } from '../support/raw-http.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);

const documentChange = (id: string, version: number, fileSha256: string) =>
  JSON.stringify({
    entity: 'document',
    op: 'upsert',
    id,
    version,
    data: {
      crew_unique_id: 'crew_ana',
      type: 'certificate',
      category: 'training',
      title: 'Uploaded certificate',
      verification_status: 'verified',
      issue_date: '2025-01-01',
      expiry_date: '2030-01-01',
      classification: { document_class: 'training', category_code: 'bst' },
      file_sha256: fileSha256,
      file_name: 'uploaded.pdf',
    },
  });

describeEachWorld('PUT /api/v2/admin/files/{sha256}', (w) => {
  const put = (sha: string, bytes: Buffer, options: { type?: string; key?: string } = {}) =>
    w.api.request('PUT', `/api/v2/admin/files/${sha}`, {
      key: options.key ?? w.keys.operator,
      body: bytes,
      headers: { 'Content-Type': options.type ?? 'application/pdf' },
    });
  const postChanges = (body: string) =>
    w.api.request('POST', '/api/v2/admin/changes', { key: w.keys.operator, body, headers: { 'Content-Type': 'application/x-ndjson' } });
  const fileRow = (id: string) =>
    w.db.selectFrom('files').select(['file_id', 'content_type', 'size']).where('file_id', '=', id).executeTakeFirst();

  it('stores the file (201, then 200), and a document change naming it applies and downloads through the partner API', async () => {
    const bytes = pdf('upload one');
    const sha = sha256(bytes);
    const first = await put(sha, bytes);
    assert.equal(first.status, 201, JSON.stringify(first.json));
    assert.deepEqual(first.json, { file_sha256: sha, content_type: 'application/pdf', size: bytes.length, held_applied: 0 });
    assert.equal((await put(sha, bytes)).status, 200, 'a file held already');
    assert.deepEqual(await fileRow(sha), { file_id: sha, content_type: 'application/pdf', size: bytes.length });

    const applied = await postChanges(documentChange('doc_up1', 1, sha));
    assert.equal(applied.json.results[0].outcome, 'applied', JSON.stringify(applied.json));
    const link = await w.api.get('/api/v2/employers/me/crew/crew_ana/documents/doc_up1/download', { key: w.keys.full });
    assert.equal(link.status, 200, JSON.stringify(link.json));
    const download = await w.api.get(new URL(link.json.download_url).pathname);
    assert.equal(download.status, 200);
    assert.deepEqual(download.bytes, bytes);
  });

  it('a change naming a file not uploaded yet is held, and applies once the file arrives', async () => {
    const bytes = pdf('upload two');
    const sha = sha256(bytes);
    const held = await postChanges(documentChange('doc_up2', 1, sha));
    assert.equal(held.json.results[0].outcome, 'held', JSON.stringify(held.json));
    assert.match(held.json.results[0].reason, /unknown file/);
    const stored = await put(sha, bytes);
    assert.equal(stored.status, 201);
    assert.equal(stored.json.held_applied, 1);
    const row = await w.db
      .selectFrom('documents')
      .select(['document_id', 'file_id'])
      .where('document_id', '=', 'doc_up2')
      .executeTakeFirst();
    assert.deepEqual(row, { document_id: 'doc_up2', file_id: sha });
    assert.equal((await w.db.selectFrom('ingest_held').select('entity_id').where('entity_id', '=', 'doc_up2').execute()).length, 0);
  });

  it("bytes whose SHA-256 is not the path's are refused (422) and nothing is stored", async () => {
    const bytes = pdf('upload three');
    const claimed = sha256(pdf('something else'));
    const res = await put(claimed, bytes);
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.json.detail.map((i: any) => [i.type, i.loc]),
      [['value_error', ['path', 'sha256']]],
    );
    assert.match(res.json.detail[0].msg, new RegExp(sha256(bytes)));
    assert.equal(await fileRow(claimed), undefined);
    assert.equal(await fileRow(sha256(bytes)), undefined);
  });

  it('a path that is not a SHA-256, another content type (415), a body over 25 MiB (413): nothing stored', async () => {
    const bytes = pdf('upload four');
    const bad = await put('ABC', bytes);
    assert.deepEqual(
      bad.json.detail.map((i: any) => [i.type, i.loc]),
      [['string_pattern_mismatch', ['path', 'sha256']]],
    );
    expectError(await put(sha256(bytes), bytes, { type: 'text/html' }), 415, 'unsupported_media_type');
    const large = parseRawResponse(
      await rawExchange(
        w.api.url,
        `PUT /api/v2/admin/files/${sha256(bytes)} HTTP/1.1\r\nHost: x\r\n` +
          `Authorization: Bearer ${w.keys.operator}\r\nContent-Type: application/pdf\r\nContent-Length: ${25 * 1024 * 1024 + 1}\r\n\r\n%PDF`,
        { stall: true },
      ),
    );
    assert.deepEqual([large.status, large.body.detail.code], [413, 'payload_too_large']);
    assert.equal(await fileRow(sha256(bytes)), undefined);
  });

  it('refuses a partner key (403 insufficient_scope)', async () => {
    const bytes = pdf('upload five');
    expectError(await put(sha256(bytes), bytes, { key: w.keys.full }), 403, 'insufficient_scope', { required_scope: 'operator' });
    assert.equal(await fileRow(sha256(bytes)), undefined);
  });
});
