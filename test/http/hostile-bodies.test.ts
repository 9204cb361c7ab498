import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, it } from 'node:test';
import type { RouteModule } from '../../src/http/app-deps.ts';
import { routeModules } from '../../src/http/routes/index.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import { capturingLogger } from '../support/log-capture.ts';
import type { TestResponse } from '../support/http.ts';
import { startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const LOOKUP = '/api/v2/employers/me/crew/lookup';
const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** A test-only route whose answer cannot be serialised as JSON. */
const unserialisable: RouteModule = {
  name: 'unserialisable',
  register(router) {
    router.get('/test/bigint', async (ctx) => {
      ctx.status = 422;
      ctx.body = { n: 1n };
    });
  },
};

describeEachStore('hostile request bodies', ({ store }) => {
  let w: World;
  const { logger, lines } = capturingLogger();
  before(async () => {
    w = await startWorld(store().db, { logger, modules: [...routeModules, unserialisable] });
  });
  after(() => w.close());

  const post = (body: string | Buffer, headers: Record<string, string> = JSON_HEADERS) =>
    w.api.request('POST', LOOKUP, { key: w.keys.full, body, headers });

  /** The status the request log and the audit row hold for this response. */
  async function recorded(res: TestResponse): Promise<{ logged: unknown; audited: unknown }> {
    const id = res.headers.get('x-request-id');
    assert.match(id ?? '', /^req_/, 'X-Request-Id');
    const line = lines.find((l) => l.reqId === id && l.msg === 'request');
    const [row] = await w.auditOf(id!);
    return { logged: line?.status, audited: row?.status };
  }

  it('valid JSON nested 5,000 levels deep is a 422 json_invalid, logged and audited as 422', async () => {
    const prefix = '{"email":"ana.silva@example.com","x":';
    const res = await post(`${prefix}${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expectIssues(res, [
      {
        type: 'json_invalid',
        loc: ['body', prefix.length + 31],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Nesting deeper than 32 levels' },
      },
    ]);
    assert.deepEqual(await recorded(res), { logged: 422, audited: 422 });
  });

  it('the shortest body nested 33 levels deep is refused; 32 levels pass on to the fields', async () => {
    // 66 characters: the fewest that nest past 32, just over the length below which the nesting is not scanned again.
    const refused = await post(`${'['.repeat(33)}${']'.repeat(33)}`);
    expectIssues(refused, [
      {
        type: 'json_invalid',
        loc: ['body', 32],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Nesting deeper than 32 levels' },
      },
    ]);
    const accepted = await post(`${'['.repeat(32)}${']'.repeat(32)}`);
    assert.equal(accepted.status, 422);
    assert.equal(accepted.json.detail[0].type, 'model_attributes_type', 'past the JSON checks, refused by the validators');
  });

  it('invalid JSON nested 5,000 levels deep is the same 422, not a stack overflow', async () => {
    const res = await post(`{"x":${'['.repeat(5000)}`);
    expectIssues(res, [
      {
        type: 'json_invalid',
        loc: ['body', 5 + 31],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Nesting deeper than 32 levels' },
      },
    ]);
    assert.deepEqual(await recorded(res), { logged: 422, audited: 422 });
  });

  it('echoed input is cut in depth (4 levels) and breadth (20 entries)', async () => {
    const deep = `${'['.repeat(30)}${']'.repeat(30)}`;
    const wide = JSON.stringify(Array.from({ length: 1000 }, (_, i) => i));
    const res = await post(`{"email":"ana.silva@example.com","deep":${deep},"wide":${wide}}`);
    expectIssues(res, [
      { type: 'extra_forbidden', loc: ['body', 'deep'], msg: 'Extra inputs are not permitted', input: [[[['[truncated]']]]] },
      {
        type: 'extra_forbidden',
        loc: ['body', 'wide'],
        msg: 'Extra inputs are not permitted',
        input: [...Array.from({ length: 20 }, (_, i) => i), '[truncated]'],
      },
    ]);
  });

  it('a body that is JSON but not an object echoes a bounded copy of itself', async () => {
    const res = await post(JSON.stringify(Array.from({ length: 100 }, () => ({ a: 'x'.repeat(500) }))));
    assert.equal(res.status, 422);
    assert.equal(res.json.detail[0].type, 'model_attributes_type');
    assert.equal(res.json.detail[0].input.at(-1), '[truncated]');
    assert.ok(res.bytes.length < 6000, `answer of ${res.bytes.length} bytes`);
  });

  it('a gzip-encoded body is inflated; one that inflates past 64 KiB is 413; an unknown encoding 415', async () => {
    const ok = await post(gzipSync('{"email":"ana.silva@example.com"}'), { ...JSON_HEADERS, 'Content-Encoding': 'gzip' });
    assert.equal(ok.status, 200);
    const bomb = gzipSync(JSON.stringify({ email: 'x'.repeat(1024 * 1024) }));
    assert.ok(bomb.length < 8 * 1024);
    expectError(await post(bomb, { ...JSON_HEADERS, 'Content-Encoding': 'gzip' }), 413, 'payload_too_large');
    expectError(await post('{"email":"a@b.c"}', { ...JSON_HEADERS, 'Content-Encoding': 'compress' }), 415, 'unsupported_media_type');
  });

  it('keys named like Object.prototype members, __proto__ included, are extra_forbidden on every body, and change nothing', async () => {
    const extra = (key: string, input: unknown) => ({
      type: 'extra_forbidden',
      loc: ['body', key],
      msg: 'Extra inputs are not permitted',
      input,
    });
    const check = await w.api.request('POST', '/api/v2/employers/me/crew/crew_ana/compliance-checks', {
      key: w.keys.full,
      body: { constructor: 1 },
    });
    expectIssues(check, [extra('constructor', 1)]);
    expectIssues(await post('{"email":"ana.silva@example.com","toString":"x","valueOf":2}'), [extra('toString', 'x'), extra('valueOf', 2)]);
    // JSON.parse makes `__proto__` an own key, as Python's json module does: one more undeclared field.
    expectIssues(await post('{"email":"ana.silva@example.com","__proto__":{"admin":true}}'), [extra('__proto__', { admin: true })]);
    const registration = await w.api.request('POST', '/api/v2/admin/partners/ptn_full/webhook-endpoints', {
      key: w.keys.operator,
      body: '{"url":"https://hooks.partner.example/x","subscribed_events":["crew.status.changed"],"hasOwnProperty":true,"isPrototypeOf":null,"__proto__":[]}',
      headers: JSON_HEADERS,
    });
    expectIssues(registration, [extra('hasOwnProperty', true), extra('isPrototypeOf', null), extra('__proto__', [])]);
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  });

  it('a UTF-8 byte-order mark opening a body is dropped, as FastAPI drops it; a second one is json_invalid', async () => {
    // Starlette hands json.loads the body's bytes, which it decodes as utf-8-sig when they open with the mark.
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const withBom = (text: string, marks = 1) => Buffer.concat([...Array.from({ length: marks }, () => bom), Buffer.from(text)]);
    assert.equal((await post(withBom('{"email":"ana.silva@example.com"}'))).status, 200);
    const invalid = (pos: number, error: string) => ({
      type: 'json_invalid',
      loc: ['body', pos],
      msg: 'JSON decode error',
      input: {},
      ctx: { error },
    });
    expectIssues(await post(withBom('{"email": }')), [invalid(10, 'Expecting value')]);
    expectIssues(await post(withBom('{"email":"ana.silva@example.com"}', 2)), [invalid(0, 'Expecting value')]);
  });

  it('a body that cannot be serialised is a 500 internal_error with X-Request-Id, logged and audited as 500', async () => {
    const res = await w.api.get('/test/bigint', { unchecked: true });
    expectError(res, 500, 'internal_error');
    assert.deepEqual(await recorded(res), { logged: 500, audited: 500 });
  });

  it('a refused webhook registration never echoes a secret, under any spelling of its key', async () => {
    const secret = 'whsec_partner-chosen-0123456789abcdef';
    const path = '/api/v2/admin/partners/ptn_full/webhook-endpoints';
    const bodies = [
      { subscribed_events: ['crew.status.changed'], secret },
      { url: 'https://user:pw@hooks.partner.example/x', subscribed_events: ['crew.status.changed'], Secret: secret },
      { url: 'ftp://x', subscribed_events: ['crew.status.changed'], SECRET: secret, nested: { client_secret: secret, password: secret } },
      { url: 'ftp://x', subscribed_events: [{ api_key: secret }], secret: 12345 },
    ];
    for (const body of bodies) {
      const res = await w.api.request('POST', path, { key: w.keys.operator, body });
      assert.equal(res.status, 422, JSON.stringify(res.json));
      const text = res.bytes.toString();
      assert.ok(!text.includes(secret) && !text.includes('12345') && !text.includes(':pw@'), text);
    }
  });

  it('NUL in a path, a query or a body string is refused before the store (Postgres text cannot hold it) and audited', async () => {
    const path = await w.api.get('/api/v2/employers/me/crew/%00/profile', { key: w.keys.full });
    expectError(path, 404, 'not_found');
    const query = await w.api.request('POST', '/api/v2/employers/me/crew/crew_ana/compliance-checks?vessel_id=%00', {
      key: w.keys.full,
      body: {},
    });
    expectIssues(query, [
      {
        type: 'value_error',
        loc: ['query', 'vessel_id'],
        msg: 'Value error, text must not contain NUL characters',
        input: '\u0000',
        ctx: { error: {} },
      },
    ]);
    const body = await post('{"email":"ana\\u0000@example.com"}');
    expectIssues(body, [
      {
        type: 'value_error',
        loc: ['body', 'email'],
        msg: 'Value error, text must not contain NUL characters',
        input: 'ana\u0000@example.com',
        ctx: { error: {} },
      },
    ]);
    for (const res of [path, query, body]) assert.equal((await recorded(res)).audited, res.status);
    const [row] = await w.auditOf(path.headers.get('x-request-id')!);
    assert.equal(row?.crewUniqueId, '\uFFFD');
  });

  it('no body, an empty body and a JSON null are all `missing`', async () => {
    for (const body of ['', 'null']) {
      expectIssues(await post(body), [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    }
    const none = await w.api.request('POST', LOOKUP, { key: w.keys.full });
    expectIssues(none, [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  });
});
