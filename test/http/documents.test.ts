import assert from 'node:assert/strict';
import { it } from 'node:test';
import { expectError } from '../support/expect.ts';
import { ANA_EXCLUDED, ANA_LISTED, ANA_MEDICAL, describeEachWorld } from '../support/read-api-world.ts';

const list = (crew: string) => `/api/v2/employers/me/crew/${crew}/documents`;
const download = (crew: string, doc: string) => `/api/v2/employers/me/crew/${crew}/documents/${doc}/download`;

describeEachWorld('documents list and download links', (w) => {
  const ids = async (key: string, crew = 'crew_ana') => (await w.api.get(list(crew), { key })).json.items.map((d: any) => d.document_id);

  it('lists processed, current, live documents in id order, medical included with crew:medical:read', async () => {
    assert.deepEqual(await ids(w.keys.full), [...ANA_LISTED, ...ANA_MEDICAL].sort());
  });

  it('leaves out medical documents without crew:medical:read', async () => {
    assert.deepEqual(await ids(await w.partnerWith(['crew:documents:read'])), ANA_LISTED);
  });

  it('never lists a processing, rejected, duplicate, placeholder, legacy, withdrawn or superseded document', async () => {
    const listed = await ids(w.keys.full);
    for (const id of ANA_EXCLUDED) assert.ok(!listed.includes(id), id);
  });

  it('items carry the full document shape with derived status and flags', async () => {
    const res = await w.api.get(list('crew_ana'), { key: w.keys.full });
    assert.equal(res.json.crew_unique_id, 'crew_ana');
    const byId = Object.fromEntries(res.json.items.map((d: any) => [d.document_id, d]));
    assert.deepEqual(byId.doc_expired, {
      document_id: 'doc_expired',
      type: 'certificate',
      category: 'training',
      title: 'Title of doc_expired',
      issuer: null,
      verification_status: 'verified',
      status: 'expired',
      issue_date: null,
      expiry_date: '2026-11-21',
      document_number: null,
      review_status: 'approved',
      is_expired: true,
      no_expiry: false,
      is_current: true,
      superseded_by: null,
      classification: {
        taxonomy_version: '2026.1',
        document_class: 'training',
        category_code: 'bst',
        catalogue_title: { id: 'bst', name: 'Title of doc_expired' },
        stcw_regulation: null,
        stcw_codes: [],
        level: null,
        is_refresher: false,
        flag_state: null,
        coc_capacities: [],
        sources: ['document_scan'],
      },
    });
    assert.equal(byId.doc_today.status, 'active', 'a document expiring today is not expired yet');
    assert.equal(byId.doc_pass.no_expiry, true);
    assert.equal(byId.doc_pass.is_expired, false);
  });

  it('list gates: scope (403), fleet (404 before consent), consent (403)', async () => {
    expectError(await w.api.get(list('crew_ana'), { key: await w.partnerWith(['crew:documents:download']) }), 403, 'insufficient_scope', {
      required_scope: 'crew:documents:read',
    });
    for (const crew of ['crew_dan', 'crew_fay', 'crew_eve', 'nobody']) {
      expectError(await w.api.get(list(crew), { key: w.keys.full }), 404, 'crew_not_found');
    }
    expectError(await w.api.get(list('crew_ben'), { key: w.keys.full }), 403, 'consent_required', { consent: 'documents' });
    expectError(
      await w.api.get(list('crew_ana'), { key: await w.partnerWith(['crew:documents:read'], ['profile']) }),
      403,
      'consent_required',
    );
    assert.deepEqual(await ids(w.keys.fullTest, 'crew_eve'), ['doc_eve']);
    assert.deepEqual(await ids(w.keys.b, 'crew_fay'), ['doc_fay']);
  });

  it('download: a link object to the file route, valid 15 minutes', async () => {
    const res = await w.api.get(download('crew_ana', 'doc_coc'), { key: w.keys.full });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json), ['document_id', 'download_url', 'expires_at', 'content_type', 'file_name']);
    assert.equal(res.json.document_id, 'doc_coc');
    assert.match(res.json.download_url, new RegExp(`^${w.api.url}/api/v2/files/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    assert.equal(res.json.expires_at, '2026-11-22T10:15:00Z');
    assert.equal(res.json.content_type, 'application/pdf');
    assert.equal(res.json.file_name, 'doc.pdf');
  });

  it('download: medical documents only with crew:medical:read', async () => {
    assert.equal((await w.api.get(download('crew_ana', 'doc_med'), { key: w.keys.full })).status, 200);
    const noMedical = await w.partnerWith(['crew:documents:download']);
    expectError(await w.api.get(download('crew_ana', 'doc_med'), { key: noMedical }), 404, 'document_not_found');
    assert.equal((await w.api.get(download('crew_ana', 'doc_coc'), { key: noMedical })).status, 200);
  });

  it('download: 404 document_not_found for every document the list does not show, or without a file', async () => {
    for (const id of [...ANA_EXCLUDED, 'doc_nofile', 'doc_ben', 'nope']) {
      expectError(await w.api.get(download('crew_ana', id), { key: w.keys.full }), 404, 'document_not_found');
    }
  });

  it('download gates: scope, fleet, consent', async () => {
    expectError(
      await w.api.get(download('crew_ana', 'doc_coc'), { key: await w.partnerWith(['crew:documents:read']) }),
      403,
      'insufficient_scope',
      {
        required_scope: 'crew:documents:download',
      },
    );
    expectError(await w.api.get(download('crew_fay', 'doc_fay'), { key: w.keys.full }), 404, 'crew_not_found');
    expectError(await w.api.get(download('crew_eve', 'doc_eve'), { key: w.keys.full }), 404, 'crew_not_found');
    expectError(await w.api.get(download('crew_ben', 'doc_ben'), { key: w.keys.full }), 403, 'consent_required', { consent: 'documents' });
  });
});
