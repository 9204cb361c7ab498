import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { beforeEach, it } from 'node:test';
import { replaceConsents } from '../../src/store/repositories/reference-data-repo.ts';
import { expectError } from '../support/expect.ts';
import { describeEachWorld, NOW } from '../support/read-api-world.ts';

const download = (crew: string, doc: string) => `/api/v2/employers/me/crew/${crew}/documents/${doc}/download`;
const PDF_START = '%PDF-1.4';

describeEachWorld('file links', (w) => {
  beforeEach(() => w.setNow(NOW));

  /** The path of a fresh link (the origin is the test server's own). */
  async function link(key: string, crew = 'crew_ana', doc = 'doc_coc'): Promise<string> {
    const res = await w.api.get(download(crew, doc), { key });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return new URL(res.json.download_url).pathname;
  }

  it('following a link needs no key and returns the file as a private attachment, audited without the token', async () => {
    const path = await link(w.keys.full);
    const res = await w.api.get(path);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="doc.pdf"; filename*=UTF-8\'\'doc.pdf');
    assert.ok(res.bytes.toString('latin1').startsWith(PDF_START));
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.deepEqual(
      {
        partner: row?.partnerId,
        key: row?.keyId,
        crew: row?.crewUniqueId,
        doc: row?.documentId,
        route: row?.route,
        path: row?.path,
        status: row?.status,
      },
      {
        partner: 'ptn_full',
        key: w.keyIds.full,
        crew: 'crew_ana',
        doc: 'doc_coc',
        route: '/api/v2/files/{token}',
        path: '/api/v2/files/{token}',
        status: 200,
      },
    );
  });

  it('a wrong method on a link is 405, and the token stays out of the audit row', async () => {
    const path = await link(w.keys.full);
    const res = await w.api.request('POST', path);
    expectError(res, 405, 'method_not_allowed');
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(row?.path, '/api/v2/files/{token}');
  });

  it('a link works until 15 minutes have passed, then is 410 link_expired', async () => {
    const path = await link(w.keys.full);
    w.setNow(new Date(NOW.getTime() + 15 * 60_000 - 1000));
    assert.equal((await w.api.get(path)).status, 200);
    w.setNow(new Date(NOW.getTime() + 15 * 60_000));
    const res = await w.api.get(path);
    expectError(res, 410, 'link_expired');
    assert.equal((await w.auditOf(res.headers.get('x-request-id')!))[0]?.documentId, 'doc_coc');
  });

  it('a tampered or made-up token is 404 not_found', async () => {
    const path = await link(w.keys.full);
    const token = path.split('/').pop()!;
    const [body, sig] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const longer = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400 })).toString('base64url');
    const otherDoc = Buffer.from(JSON.stringify({ ...claims, d: 'doc_med' })).toString('base64url');
    // A token signed with a key the server does not hold.
    const selfSigned = `${otherDoc}.${createHmac('sha256', 'guess').update(otherDoc).digest('base64url')}`;
    for (const bad of [`${longer}.${sig}`, `${otherDoc}.${sig}`, selfSigned, `${body}.${sig.slice(1)}A`, 'nonsense', `${token}x`]) {
      expectError(await w.api.get(`/api/v2/files/${bad}`), 404, 'not_found');
    }
  });

  it('every gate is checked again when the link is followed', async () => {
    // Consent withdrawn after the link was made.
    const key = await w.partnerWith(['crew:documents:download']);
    const consentPath = await link(key);
    const partnerId = (await w.api.get('/api/v2/partners/me', { key })).json.partner_id;
    await replaceConsents(w.db, 'crew_ana', partnerId, ['profile']);
    expectError(await w.api.get(consentPath), 403, 'consent_required', { consent: 'documents' });

    // The document replaced by a newer edition.
    const replacedPath = await link(w.keys.full, 'crew_ana', 'doc_today');
    await w.db.updateTable('documents').set({ is_current: 0, superseded_by: 'doc_coc' }).where('document_id', '=', 'doc_today').execute();
    try {
      expectError(await w.api.get(replacedPath), 404, 'document_not_found');
    } finally {
      await w.db.updateTable('documents').set({ is_current: 1, superseded_by: null }).where('document_id', '=', 'doc_today').execute();
    }

    // The crew member signed off the vessel.
    const signedOffPath = await link(w.keys.full, 'crew_ana', 'doc_edge');
    await w.db.updateTable('assignments').set({ status: 'signed_off' }).where('crew_unique_id', '=', 'crew_ana').execute();
    try {
      expectError(await w.api.get(signedOffPath), 404, 'crew_not_found');
    } finally {
      await w.db.updateTable('assignments').set({ status: 'active' }).where('crew_unique_id', '=', 'crew_ana').execute();
    }
    assert.equal((await w.api.get(signedOffPath)).status, 200, 'the same link works again once the gate passes');
  });

  it('a link made with a key that is since revoked no longer works', async () => {
    const key = await w.partnerWith(['crew:documents:download']);
    const me = (await w.api.get('/api/v2/partners/me', { key })).json;
    const path = await link(key);
    assert.equal(
      (await w.api.request('DELETE', `/api/v2/admin/partners/${me.partner_id}/keys/${me.key_id}`, { key: w.keys.operator })).status,
      200,
    );
    expectError(await w.api.get(path), 404, 'not_found');
  });

  it('a medical link stops working when the partner loses crew:medical:read', async () => {
    const key = await w.partnerWith(['crew:documents:download', 'crew:medical:read']);
    const partnerId = (await w.api.get('/api/v2/partners/me', { key })).json.partner_id;
    const path = await link(key, 'crew_ana', 'doc_med');
    assert.equal((await w.api.get(path)).status, 200);
    await w.db
      .updateTable('partners')
      .set({ contract_scopes: JSON.stringify(['crew:documents:download']) })
      .where('partner_id', '=', partnerId)
      .execute();
    expectError(await w.api.get(path), 404, 'document_not_found');
  });
});
