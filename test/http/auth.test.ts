import assert from 'node:assert/strict';
import { it } from 'node:test';
import { generateKey, keyChecksum } from '../../src/domain/api-keys.ts';
import { expectError } from '../support/expect.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

const ME = '/api/v2/partners/me';
const REALM = 'Bearer realm="partner-api"';
const INVALID = 'Bearer realm="partner-api", error="invalid_token"';

describeEachWorld('authentication', (w) => {
  it('no key: 401 invalid_api_key with the bare Bearer challenge, audited without partner', async () => {
    const res = await w.api.get(ME);
    expectError(res, 401, 'invalid_api_key');
    assert.equal(res.headers.get('www-authenticate'), REALM);
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(row?.status, 401);
    assert.equal(row?.partnerId, null);
    assert.equal(row?.route, '/api/v2/partners/me');
  });

  it('malformed, bad-checksum and unknown keys: 401 with error="invalid_token"; the message shows at most prefix and last 4', async () => {
    const unknown = generateKey('live').key;
    const body = unknown.slice(0, -6);
    const badChecksum = body + (keyChecksum(body) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');
    for (const key of ['not-a-key', `svc_live_${'a'.repeat(10)}`, badChecksum, unknown]) {
      const res = await w.api.get(ME, { key });
      expectError(res, 401, 'invalid_api_key');
      assert.equal(res.headers.get('www-authenticate'), INVALID);
      assert.ok(!res.json.detail.message.includes(key.slice(0, -4)), `message echoes the key: ${res.json.detail.message}`);
    }
  });

  it('a public widget key and an operator key are refused by partner routes', async () => {
    expectError(await w.api.get(ME, { key: generateKey('pub').key }), 401, 'invalid_api_key');
    const op = await w.api.get(ME, { key: w.keys.operator });
    expectError(op, 401, 'invalid_api_key');
    assert.equal(op.headers.get('www-authenticate'), INVALID);
  });

  it('the key may come in X-Partner-API-Key; Bearer wins when both are sent', async () => {
    const header = await w.api.get(ME, { headers: { 'X-Partner-API-Key': w.keys.b } });
    assert.equal(header.json.partner_id, 'ptn_b');
    const both = await w.api.get(ME, { key: w.keys.full, headers: { 'X-Partner-API-Key': w.keys.b } });
    assert.equal(both.json.partner_id, 'ptn_full');
    const badBearer = await w.api.get(ME, { key: 'svc_live_nope', headers: { 'X-Partner-API-Key': w.keys.b } });
    expectError(badBearer, 401, 'invalid_api_key');
  });

  it('an Authorization header of another scheme is refused', async () => {
    const res = await w.api.get(ME, { headers: { Authorization: `Basic ${Buffer.from(`x:${w.keys.full}`).toString('base64')}` } });
    expectError(res, 401, 'invalid_api_key');
  });

  it('a revoked key is refused at once, by the very next request', async () => {
    const key = await w.partnerWith(['vessels:fleet:read']);
    const partnerId = (await w.api.get(ME, { key })).json.partner_id;
    const keyId = (await w.api.get(ME, { key })).json.key_id;
    const revoke = await w.api.request('DELETE', `/api/v2/admin/partners/${partnerId}/keys/${keyId}`, { key: w.keys.operator });
    assert.equal(revoke.status, 200);
    const res = await w.api.get('/api/v2/employers/me/vessels', { key });
    expectError(res, 401, 'invalid_api_key');
    assert.match(res.json.detail.message, /revoked/);
  });
});
