import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { findEndpointByPartner } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import type { TestResponse } from '../support/http.ts';
import { NOW, startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const path = (partner: string) => `/api/v2/admin/partners/${partner}/webhook-endpoints`;
const EXPECTED =
  "'crew.document.processed', 'crew.document.updated', 'crew.compliance.changed', 'crew.status.changed', 'crew.profile.updated' or 'crew.compliance.upcoming'";
const HOOK = 'http://127.0.0.1:9/hook';
const valid = { url: HOOK, subscribed_events: ['crew.status.changed'] };
const OWN_SECRET = 'partner-chosen-secret-0123456789';

function expectEndpoint(res: TestResponse, status: 200 | 201): Record<string, any> {
  assert.equal(res.status, status, JSON.stringify(res.json));
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.deepEqual(Object.keys(res.json).sort(), [
    'created_at',
    'endpoint_id',
    'health',
    'notice_lead_days',
    'partner_id',
    'public_key',
    'secret',
    'status',
    'subscribed_events',
    'updated_at',
    'url',
  ]);
  assert.deepEqual(Object.keys(res.json.health), [
    'consecutive_failures',
    'failing_since',
    'last_success_at',
    'disabled_reason',
    'disabled_at',
  ]);
  return res.json;
}

describeEachStore('admin: registering a webhook endpoint over HTTP', ({ store }) => {
  let w: World;
  let strictWorld: World;
  before(async () => {
    w = await startWorld(store().db, { config: { allowInsecureWebhooks: true } });
    strictWorld = await startWorld(store().db);
  });
  after(async () => {
    await w.close();
    await strictWorld.close();
  });

  const post = (partner: string, body: unknown, key: string | undefined = w.keys.operator, headers?: Record<string, string>) =>
    w.api.request('POST', path(partner), { key, body, headers });

  it('creates the endpoint (201) with a generated secret, then rotates it (200) keeping its id and creation time', async () => {
    const first = expectEndpoint(await post('ptn_full', valid), 201);
    assert.match(first.endpoint_id, /^whe_/);
    assert.equal(first.partner_id, 'ptn_full');
    assert.equal(first.url, HOOK);
    assert.deepEqual(first.subscribed_events, ['crew.status.changed']);
    assert.equal(first.status, 'active');
    assert.match(first.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'standard base64, as Standard Webhooks libraries decode it');
    assert.equal(Buffer.from(first.secret.slice(6), 'base64').length, 32);
    assert.equal(first.created_at, '2026-11-22T10:00:00Z');
    assert.equal(first.updated_at, '2026-11-22T10:00:00Z');
    assert.equal((await findEndpointByPartner(w.db, 'ptn_full'))?.secret, first.secret);

    const later = new Date(NOW.getTime() + 60_000);
    w.setNow(later);
    try {
      const second = expectEndpoint(
        await post('ptn_full', {
          url: 'http://127.0.0.1:9/other',
          subscribed_events: ['crew.profile.updated', 'crew.status.changed'],
          status: 'disabled',
        }),
        200,
      );
      assert.equal(second.endpoint_id, first.endpoint_id);
      assert.equal(second.url, 'http://127.0.0.1:9/other');
      assert.deepEqual(second.subscribed_events, ['crew.profile.updated', 'crew.status.changed']);
      assert.equal(second.status, 'disabled');
      assert.match(second.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.notEqual(second.secret, first.secret, 'a rotation without a secret generates a new one');
      assert.equal(second.created_at, first.created_at);
      assert.equal(second.updated_at, later.toISOString().replace('.000Z', 'Z'));
    } finally {
      w.setNow(NOW);
    }
  });

  it('keeps a secret given in the body, on creation and on rotation', async () => {
    const created = expectEndpoint(await post('ptn_b', { ...valid, secret: OWN_SECRET }), 201);
    assert.equal(created.secret, OWN_SECRET);
    const rotated = expectEndpoint(await post('ptn_b', { ...valid, url: 'http://localhost:9/b', secret: OWN_SECRET }), 200);
    assert.equal(rotated.secret, OWN_SECRET);
    assert.equal(rotated.url, 'http://localhost:9/b');
    assert.equal((await findEndpointByPartner(w.db, 'ptn_b'))?.secret, OWN_SECRET);
  });

  it('a missing url, an empty event list, an unknown event, a bad status and extra fields: every issue at once', async () => {
    const body = { subscribed_events: [], status: 'paused', foo: 1 };
    expectIssues(await post('ptn_basic', body), [
      { type: 'missing', loc: ['body', 'url'], msg: 'Field required', input: body },
      {
        type: 'too_short',
        loc: ['body', 'subscribed_events'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
      {
        type: 'literal_error',
        loc: ['body', 'status'],
        msg: "Input should be 'active' or 'disabled'",
        input: 'paused',
        ctx: { expected: "'active' or 'disabled'" },
      },
      { type: 'extra_forbidden', loc: ['body', 'foo'], msg: 'Extra inputs are not permitted', input: 1 },
    ]);
    expectIssues(await post('ptn_basic', { ...valid, subscribed_events: ['crew.status.changed', 'crew.deleted'] }), [
      {
        type: 'literal_error',
        loc: ['body', 'subscribed_events', 1],
        msg: `Input should be ${EXPECTED}`,
        input: 'crew.deleted',
        ctx: { expected: EXPECTED },
      },
    ]);
    assert.equal(await findEndpointByPartner(w.db, 'ptn_basic'), undefined);
  });

  it('a rejected secret is never echoed', async () => {
    const res = await post('ptn_basic', { ...valid, secret: 'too-short' });
    expectIssues(res, [
      {
        type: 'string_too_short',
        loc: ['body', 'secret'],
        msg: 'String should have at least 24 characters',
        input: '[redacted]',
        ctx: { min_length: 24 },
      },
    ]);
    assert.ok(!res.bytes.toString().includes('too-short'));
  });

  it('plain http is refused when the server does not allow insecure webhooks', async () => {
    const res = await strictWorld.api.request('POST', path('ptn_basic'), { key: strictWorld.keys.operator, body: valid });
    expectIssues(res, [
      {
        type: 'value_error',
        loc: ['body', 'url'],
        msg: 'Value error, url must use https (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
        input: HOOK,
        ctx: { error: {} },
      },
    ]);
    const loopback = await strictWorld.api.request('POST', path('ptn_basic'), {
      key: strictWorld.keys.operator,
      body: { ...valid, url: 'https://127.0.0.1/hook' },
    });
    expectIssues(loopback, [
      {
        type: 'value_error',
        loc: ['body', 'url'],
        msg: 'Value error, url points to 127.0.0.1, a loopback address (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
        input: 'https://127.0.0.1/hook',
        ctx: { error: {} },
      },
    ]);
  });

  it('a body that is not an object, a missing body and malformed JSON are 422 in the pydantic shape', async () => {
    expectIssues(await post('ptn_basic', ['x']), [
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: ['x'],
      },
    ]);
    expectIssues(await post('ptn_basic', '"text"', undefined, { 'Content-Type': 'application/json' }), [
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 'text',
      },
    ]);
    expectIssues(await post('ptn_basic', undefined), [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    expectIssues(await post('ptn_basic', 'null', undefined, { 'Content-Type': 'application/json' }), [
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
    expectIssues(await post('ptn_basic', '{"url": ', undefined, { 'Content-Type': 'application/json' }), [
      {
        type: 'json_invalid',
        loc: ['body', 8],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
  });

  it('a body that is not JSON is 415, one over 64 KiB 413', async () => {
    expectError(
      await post('ptn_basic', 'url=x', undefined, { 'Content-Type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
    const big = JSON.stringify({ ...valid, note: 'x'.repeat(70 * 1024) });
    expectError(await post('ptn_basic', big, undefined, { 'Content-Type': 'application/json' }), 413, 'payload_too_large');
    assert.equal(await findEndpointByPartner(w.db, 'ptn_basic'), undefined);
  });

  it('a partner key gets 403 insufficient_scope, no key 401, an unknown partner 404 partner_not_found', async () => {
    expectError(await post('ptn_basic', valid, w.keys.basic), 403, 'insufficient_scope', { required_scope: 'operator' });
    const anonymous = await w.api.request('POST', path('ptn_basic'), { body: valid });
    expectError(anonymous, 401, 'invalid_api_key');
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer realm="partner-api"/);
    expectError(await post('ptn_nope', valid), 404, 'partner_not_found');
    assert.equal(await findEndpointByPartner(w.db, 'ptn_basic'), undefined);
  });

  it("the call is audited with the operator key and the path's partner; no secret reaches the audit log", async () => {
    const res = await post('ptn_basic', { ...valid, secret: OWN_SECRET });
    const endpoint = expectEndpoint(res, 201);
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(row?.keyId, w.keyIds.operator);
    assert.equal(row?.partnerId, 'ptn_basic');
    assert.equal(row?.method, 'POST');
    assert.equal(row?.route, '/api/v2/admin/partners/{partner_id}/webhook-endpoints');
    assert.equal(row?.path, path('ptn_basic'));
    assert.equal(row?.status, 201);
    await w.flushAudit();
    const everything = JSON.stringify(await w.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [OWN_SECRET, endpoint.secret]) assert.ok(!everything.includes(secret));
    assert.ok(!/whsec_/.test(everything), 'no generated secret in the audit log');
    assert.ok(!everything.includes(HOOK), 'no body in the audit log');
  });
});
