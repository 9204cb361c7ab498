import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AppError } from '../../src/domain/app-error.ts';
import type { RouteModule } from '../../src/http/app-deps.ts';
import { routeModules } from '../../src/http/routes/index.ts';
import { expectError } from '../support/expect.ts';
import { checkComponent } from '../support/openapi-check.ts';
import { describeEachWorld, NOW } from '../support/read-api-world.ts';

/** Test-only routes that fail on purpose, to see how failures are rendered. */
const failing: RouteModule = {
  name: 'failing',
  register(router) {
    router.get('/test/boom', async () => {
      throw new Error('secret detail at /srv/app/internal.ts:42');
    });
    router.get('/test/app-error', async () => {
      throw new AppError('compliance_unavailable', 'the evaluator is unavailable', { headers: { 'Retry-After': '5' } });
    });
  },
};

describeEachWorld('routing, errors, request ids and the audit log', { modules: [...routeModules, failing] }, (w) => {
  it('an unknown route is 404 not_found, with or without a key, and is audited', async () => {
    const res = await w.api.get('/api/v2/nothing/here');
    expectError(res, 404, 'not_found');
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(row?.status, 404);
    assert.equal(row?.route, null);
    assert.equal(row?.path, '/api/v2/nothing/here');
    expectError(await w.api.get('/api/v2/nothing/here', { key: w.keys.full }), 404, 'not_found');
  });

  it('a known path with the wrong method is 405 with Allow listing the methods it takes', async () => {
    const res = await w.api.request('DELETE', '/api/v2/employers/me/fleet', { key: w.keys.full });
    expectError(res, 405, 'method_not_allowed');
    assert.deepEqual(res.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD']);
    const lookup = await w.api.get('/api/v2/employers/me/crew/lookup', { key: w.keys.full });
    expectError(lookup, 405, 'method_not_allowed');
    assert.equal(lookup.headers.get('allow'), 'POST');
    const [row] = await w.auditOf(lookup.headers.get('x-request-id')!);
    assert.equal(row?.route, '/api/v2/employers/me/crew/lookup');
    assert.equal(row?.status, 405);
  });

  it("a 405 on a crew member's path is audited under the route with the crew member and document it names", async () => {
    const path = '/api/v2/employers/me/crew/crew_ana/documents/doc_ana_1/download';
    const res = await w.api.request('DELETE', path, { key: w.keys.full });
    expectError(res, 405, 'method_not_allowed');
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.deepEqual(
      [row?.route, row?.path, row?.crewUniqueId, row?.documentId],
      ['/api/v2/employers/me/crew/{crew_unique_id}/documents/{document_id}/download', path, 'crew_ana', 'doc_ana_1'],
    );
  });

  it('every response carries a fresh X-Request-Id equal to its audit row, with partner, key, route, ids, status and address', async () => {
    const res = await w.api.get('/api/v2/employers/me/crew/crew_ana/documents', { key: w.keys.full });
    assert.equal(res.status, 200);
    const id = res.headers.get('x-request-id')!;
    const rows = await w.auditOf(id);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { ...rows[0], latencyMs: typeof rows[0]!.latencyMs },
      {
        requestId: id,
        at: NOW.toISOString(),
        partnerId: 'ptn_full',
        keyId: w.keyIds.full,
        method: 'GET',
        route: '/api/v2/employers/me/crew/{crew_unique_id}/documents',
        path: '/api/v2/employers/me/crew/crew_ana/documents',
        crewUniqueId: 'crew_ana',
        documentId: null,
        status: 200,
        latencyMs: 'number',
        clientIp: '127.0.0.1',
        traceId: null,
      },
    );
    const again = await w.api.get('/api/v2/employers/me/crew/crew_ana/documents', { key: w.keys.full });
    assert.notEqual(again.headers.get('x-request-id'), id);
  });

  it('the crew path parameter has one name, crew_unique_id, and every crew route records it in the audit row', async () => {
    const paths = [
      '/api/v2/employers/me/crew/crew_ana/profile',
      '/api/v2/employers/me/crew/crew_ana/photo',
      '/api/v2/employers/me/crew/crew_ana/documents',
      '/api/v2/employers/me/crew/crew_ana/documents/doc_x/download',
    ];
    for (const path of paths) {
      const res = await w.api.get(path, { key: w.keys.full });
      const [row] = await w.auditOf(res.headers.get('x-request-id')!);
      assert.equal(row?.crewUniqueId, 'crew_ana', path);
      assert.match(row?.route ?? '', /\/crew\/\{crew_unique_id\}\//, path);
    }
  });

  it("a client-sent X-Request-Id is not adopted: the id is always the audit row's own", async () => {
    const res = await w.api.get('/_internal/health', { headers: { 'X-Request-Id': 'req_mine' } });
    assert.notEqual(res.headers.get('x-request-id'), 'req_mine');
    assert.equal((await w.auditOf(res.headers.get('x-request-id')!)).length, 1);
    assert.equal((await w.auditOf('req_mine')).length, 0);
  });

  it('the audit row never holds the key or the body', async () => {
    const res = await w.api.request('POST', '/api/v2/employers/me/crew/lookup', {
      key: w.keys.full,
      body: { email: 'ana.silva@example.com' },
    });
    assert.equal(res.status, 200);
    await w.flushAudit();
    const rows = await w.db.selectFrom('audit_log').selectAll().execute();
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(w.keys.full), 'key in audit log');
    assert.ok(!dump.includes('ana.silva@example.com'), 'body in audit log');
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(row?.crewUniqueId, 'crew_ana');
  });

  it('an unexpected failure is a 500 internal_error without stack or detail, audited and logged with its request id', async () => {
    w.log.expect('unexpected error');
    const res = await w.api.get('/test/boom', { unchecked: true });
    assert.equal(res.status, 500);
    assert.ok(
      w.log.lines.some((l) => l.msg === 'unexpected error' && l.reqId === res.headers.get('x-request-id')),
      'the log names the request',
    );
    checkComponent('Error', res.json);
    assert.equal(res.json.detail.code, 'internal_error');
    const text = res.bytes.toString();
    assert.ok(!text.includes('secret detail') && !text.includes('internal.ts') && !text.includes('at '), text);
    assert.match(res.json.detail.message, new RegExp(res.headers.get('x-request-id')!));
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(row?.status, 500);
  });

  it('an AppError is rendered with its status, code and headers', async () => {
    const res = await w.api.get('/test/app-error', { unchecked: true });
    assert.equal(res.status, 503);
    checkComponent('Error', res.json);
    assert.deepEqual(res.json, { detail: { code: 'compliance_unavailable', message: 'the evaluator is unavailable' } });
    assert.equal(res.headers.get('retry-after'), '5');
  });

  it('a body over 64 KiB is 413, whether its length is declared or streamed', async () => {
    const big = JSON.stringify({ email: 'x'.repeat(70 * 1024) });
    const declared = await w.api.request('POST', '/api/v2/employers/me/crew/lookup', {
      key: w.keys.full,
      body: big,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(declared, 413, 'payload_too_large');
    const chunks = [Buffer.from('{"email":"'), Buffer.alloc(70 * 1024, 'x'), Buffer.from('"}')];
    const streamed = await fetch(`${w.api.url}/api/v2/employers/me/crew/lookup`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.keys.full}`, 'Content-Type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          for (const x of chunks) c.enqueue(x);
          c.close();
        },
      }),
      duplex: 'half',
    }).catch((err: Error) => err);
    // The server may answer before the client has finished sending; either way nothing over 64 KiB is read.
    if (streamed instanceof Response) {
      assert.equal(streamed.status, 413);
      checkComponent('Error', await streamed.json());
    }
    const exactly = JSON.stringify({ email: `${'x'.repeat(64 * 1024 - 40)}@example.com` });
    assert.ok(Buffer.byteLength(exactly) <= 64 * 1024);
    const fits = await w.api.request('POST', '/api/v2/employers/me/crew/lookup', {
      key: w.keys.full,
      body: exactly,
      headers: { 'Content-Type': 'application/json' },
    });
    // Read and parsed (not 413): the address is then too long, and the echoed input is cut to 200 characters.
    assert.equal(fits.status, 422);
    assert.equal(fits.json.detail[0].type, 'string_too_long');
    assert.equal(fits.json.detail[0].input.length, 200);
  });

  it('a body with a content type other than JSON is 415; application/*+json and charset are fine', async () => {
    const form = await w.api.request('POST', '/api/v2/employers/me/crew/lookup', {
      key: w.keys.full,
      body: 'email=ana.silva%40example.com',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectError(form, 415, 'unsupported_media_type');
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const ok = await w.api.request('POST', '/api/v2/employers/me/crew/lookup', {
        key: w.keys.full,
        body: '{"email":"ana.silva@example.com"}',
        headers: { 'Content-Type': type },
      });
      assert.equal(ok.status, 200, type);
    }
  });

  it('the health probe answers 200 with the store up, without a key, audited', async () => {
    const res = await w.api.get('/_internal/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { status: 'ok', store: 'ok' });
    assert.equal(res.headers.get('ratelimit'), null);
    assert.equal((await w.auditOf(res.headers.get('x-request-id')!))[0]?.route, '/_internal/health');
  });
});
