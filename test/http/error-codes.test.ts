import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { listen, type RunningServer } from '../../src/http/server.ts';
import { issueOperatorKey } from '../../src/services/api-keys.ts';
import { expectError } from '../support/expect.ts';
import type { TestResponse } from '../support/http.ts';
import { parseRawResponse, rawExchange } from '../support/raw-http.ts';
import { liveAndDownWorlds, NOW } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * The error codes of the OpenAPI documents as served (GET /openapi.json, GET /api/v2/admin/openapi.json) against the answers a
 * client gets: each code is answered by some request, at the status and on the operation where
 * the document lists it. A code the document lists that nothing answers fails here, as does an
 * answer the document does not promise where it happens.
 */

/** Codes no request of this file can draw; where the suite shows each (or why it does not). */
const ANSWERED_ELSEWHERE: Record<string, string> = {
  store_unavailable: 'a full audit queue refuses calls: test/services/audit-service.test.ts',
  internal_error: 'a failure the service did not expect: test/http/hostile-bodies.test.ts, test/http/errors-and-routing.test.ts',
};

const CREW = '/api/v2/employers/me/crew';
const ME = '/api/v2/partners/me';

/** Where the served document lists a code: the operation's answer at that status, or the document's description for paths it has none for. */
function listedWhere(document: any, method: string, path: string, status: number, code: string): boolean {
  const template = Object.keys(document.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path.split('?')[0]!));
  const operation = template && document.paths[template][method.toLowerCase()];
  const text = operation ? (operation.responses[String(status)]?.description ?? '') : document.info.description;
  return text.includes(`\`${code}\``);
}

describeEachStore('every error code of the served OpenAPI document', ({ store }) => {
  const worlds = liveAndDownWorlds(() => store().db);
  let bare: RunningServer;
  before(async () => {
    const app = createApp({ db: {} as never, config: loadConfig({}), clock: () => NOW, logger: pino({ level: 'silent' }) });
    bare = await listen(app.callback(), { host: '127.0.0.1', port: 0, timeouts: { headersMs: 1000, requestMs: 2000 } });
  });
  after(() => bare.stop(100));

  it('is one a client can be answered with, where the document lists it', async () => {
    const w = worlds.live();
    const partner = await w.api.get('/openapi.json');
    const operatorDocument = await w.api.get('/api/v2/admin/openapi.json', { key: w.keys.operator });
    assert.deepEqual([partner.status, operatorDocument.status], [200, 200]);
    // The two served documents (partners', operators') together: each path is in one of them.
    const served = { json: { ...partner.json, paths: { ...partner.json.paths, ...operatorDocument.json.paths } } };
    const codesOf = (doc: any): string[] => doc.components.schemas.Error.properties.detail.properties.code.enum;
    const listed = [...new Set([...codesOf(partner.json), ...codesOf(operatorDocument.json)])];
    const answered = new Set<string>();
    const expectAnswer = (
      method: string,
      path: string,
      res: TestResponse | { status: number; json: any },
      status: number,
      code: string,
    ) => {
      expectError(res as TestResponse, status, code);
      assert.ok(
        listedWhere(served.json, method, path, status, code),
        `${method} ${path}: ${status} ${code} is not where the document lists it`,
      );
      answered.add(code);
    };
    const get = async (path: string, status: number, code: string, key?: string) =>
      expectAnswer('GET', path, await w.api.get(path, { key }), status, code);

    await get(ME, 401, 'invalid_api_key');
    await get(`${CREW}/crew_ana/documents`, 403, 'insufficient_scope', await w.partnerWith(['vessels:fleet:read']));
    await get(`${CREW}/crew_ben/documents`, 403, 'consent_required', w.keys.full);
    await get(`${CREW}/crew_nobody/profile`, 404, 'crew_not_found', w.keys.full);
    await get(`${CREW}/crew_ana/documents/doc_nope/download`, 404, 'document_not_found', w.keys.full);
    await get(`${CREW}/crew_fay/photo`, 404, 'photo_not_found', w.keys.b);
    await get('/api/v2/employers/me/vessels/ves_nope/compliance-matrix', 404, 'vessel_not_found', w.keys.full);
    await get('/api/v2/nothing/here', 404, 'not_found', w.keys.full);
    const limited = await w.partnerWith(['vessels:fleet:read'], undefined, { rateLimit: 1 });
    assert.equal((await w.api.get(ME, { key: limited })).status, 200);
    await get(ME, 429, 'rate_limited', limited);

    const hooks = '/api/v2/admin/partners/ptn_nope/webhook-endpoints';
    const body = { url: 'https://hooks.example.com/svc', subscribed_events: ['crew.status.changed'] };
    expectAnswer('POST', hooks, await w.api.request('POST', hooks, { key: w.keys.operator, body }), 404, 'partner_not_found');
    expectAnswer(
      'DELETE',
      '/api/v2/admin/keys/key_nope',
      await w.api.request('DELETE', '/api/v2/admin/keys/key_nope', { key: w.keys.operator }),
      404,
      'key_not_found',
    );
    const operator = await issueOperatorKey(w.db, () => NOW, { label: 'error codes' });
    const hard = `/api/v2/admin/keys/${operator.record.keyId}?hard=true`;
    expectAnswer('DELETE', hard, await w.api.request('DELETE', hard, { key: w.keys.operator }), 409, 'operator_key_revoke_only');
    const changes = '/api/v2/admin/changes';
    const send = (body: string) =>
      w.api.request('POST', changes, {
        key: w.keys.operator,
        body,
        headers: { 'Content-Type': 'application/x-ndjson', 'Idempotency-Key': 'error-codes' },
      });
    assert.equal((await send('')).status, 200);
    expectAnswer('POST', changes, await send('{}'), 409, 'idempotency_key_reused');
    const fleet = '/api/v2/employers/me/fleet';
    expectAnswer('DELETE', fleet, await w.api.request('DELETE', fleet, { key: w.keys.full }), 405, 'method_not_allowed');

    const lookup = `${CREW}/lookup`;
    const post = (body: string, type: string) =>
      w.api.request('POST', lookup, { key: w.keys.full, body, headers: { 'Content-Type': type } });
    expectAnswer(
      'POST',
      lookup,
      await post(JSON.stringify({ email: `${'x'.repeat(70 * 1024)}@example.com` }), 'application/json'),
      413,
      'payload_too_large',
    );
    expectAnswer('POST', lookup, await post('email=ana.silva@example.com', 'text/plain'), 415, 'unsupported_media_type');

    const download = await w.api.get(`${CREW}/crew_ana/documents/doc_coc/download`, { key: w.keys.full });
    assert.equal(download.status, 200);
    const link = new URL(download.json.download_url).pathname;
    w.setNow(new Date(NOW.getTime() + 60 * 60_000));
    try {
      await get(link, 410, 'link_expired');
    } finally {
      w.setNow(NOW);
    }

    const down = worlds.down();
    const check = `${CREW}/crew_fay/compliance-checks`;
    expectAnswer('POST', check, await down.api.request('POST', check, { key: down.keys.b, body: {} }), 503, 'compliance_unavailable');

    // Requests Node refuses before the app sees them, answered by svc serve's listener.
    const raw = async (bytes: string, status: number, code: string, stall = false) => {
      const res = parseRawResponse(await rawExchange(bare.url, bytes, { stall }));
      expectAnswer('GET', '/', { status: res.status, json: res.body }, status, code);
    };
    await raw('G@T / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request');
    await raw(`GET ${ME} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large');
    await raw(`GET ${ME} HTTP/1.1\r\nHost: x\r\n`, 408, 'request_timeout', true);

    for (const code of Object.keys(ANSWERED_ELSEWHERE)) assert.ok(listed.includes(code), `${code} is no longer in the document`);
    assert.deepEqual([...listed].sort(), [...answered, ...Object.keys(ANSWERED_ELSEWHERE)].sort(), 'listed codes against codes answered');
  });
});
