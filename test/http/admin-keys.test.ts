import assert from 'node:assert/strict';
import { it } from 'node:test';
import { generateKey } from '../../src/domain/api-keys.ts';
import { issueOperatorKey, issuePartnerKey } from '../../src/services/api-keys.ts';
import { findApiKey } from '../../src/store/repositories/api-keys-repo.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import { describeEachWorld, NOW } from '../support/read-api-world.ts';

const keyPath = (partner: string, key: string, query = '') => `/api/v2/admin/partners/${partner}/keys/${key}${query}`;

describeEachWorld('admin: revoking and deleting keys', (w) => {
  const del = (path: string, key = w.keys.operator) => w.api.request('DELETE', path, { key });
  const freshKey = async () => issuePartnerKey(w.db, 'ptn_b', 'live', () => NOW);

  it('revokes by default (row kept, 200 {}), idempotently, and the key is refused at once', async () => {
    const k = await freshKey();
    assert.equal((await w.api.get('/api/v2/partners/me', { key: k.key })).status, 200);
    const res = await del(keyPath('ptn_b', k.record.keyId));
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {});
    const row = await findApiKey(w.db, k.record.keyId);
    assert.equal(row?.status, 'revoked');
    assert.equal(row?.revokedAt, NOW.toISOString());
    assert.deepEqual((await del(keyPath('ptn_b', k.record.keyId))).json, {});
    expectError(await w.api.get('/api/v2/partners/me', { key: k.key }), 401, 'invalid_api_key');
  });

  it('hard=true deletes the row; afterwards the key is unknown (404)', async () => {
    const k = await freshKey();
    assert.equal((await del(keyPath('ptn_b', k.record.keyId, '?hard=true'))).status, 200);
    assert.equal(await findApiKey(w.db, k.record.keyId), undefined);
    expectError(await del(keyPath('ptn_b', k.record.keyId)), 404, 'key_not_found');
  });

  it('hard accepts the usual boolean words and refuses others with bool_parsing', async () => {
    const k = await freshKey();
    assert.equal((await del(keyPath('ptn_b', k.record.keyId, '?hard=no'))).status, 200);
    assert.equal((await findApiKey(w.db, k.record.keyId))?.status, 'revoked');
    expectIssues(await del(keyPath('ptn_b', k.record.keyId, '?hard=maybe')), [
      {
        type: 'bool_parsing',
        loc: ['query', 'hard'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
    ]);
  });

  it('an unknown key or one of another partner is 404 key_not_found, and nothing changes', async () => {
    expectError(await del(keyPath('ptn_b', 'key_nope')), 404, 'key_not_found');
    expectError(await del(keyPath('ptn_b', w.keyIds.full)), 404, 'key_not_found');
    assert.equal((await findApiKey(w.db, w.keyIds.full))?.status, 'active');
  });

  it('an operator key is revoked, never hard-deleted (409)', async () => {
    const op = await issueOperatorKey(w.db, () => NOW, { partnerId: 'ptn_b' });
    expectError(await del(keyPath('ptn_b', op.record.keyId, '?hard=true')), 409, 'operator_key_revoke_only');
    assert.equal((await findApiKey(w.db, op.record.keyId))?.status, 'active');
    assert.equal((await del(keyPath('ptn_b', op.record.keyId))).status, 200);
    assert.equal((await findApiKey(w.db, op.record.keyId))?.status, 'revoked');
  });

  it('DELETE /admin/keys/{key_id} revokes any key by id, an operator key of no partner included', async () => {
    const loose = await issueOperatorKey(w.db, () => NOW, { label: 'no partner' });
    expectError(await del(keyPath('ptn_b', loose.record.keyId)), 404, 'key_not_found');
    const res = await del(`/api/v2/admin/keys/${loose.record.keyId}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {});
    assert.equal((await findApiKey(w.db, loose.record.keyId))?.status, 'revoked');
    expectError(await w.api.request('DELETE', `/api/v2/admin/keys/${loose.record.keyId}`, { key: loose.key }), 401, 'invalid_api_key');
    const k = await freshKey();
    assert.equal((await del(`/api/v2/admin/keys/${k.record.keyId}?hard=true`)).status, 200);
    assert.equal(await findApiKey(w.db, k.record.keyId), undefined);
    expectError(await del('/api/v2/admin/keys/key_nope'), 404, 'key_not_found');
    const op = await issueOperatorKey(w.db, () => NOW);
    expectError(await del(`/api/v2/admin/keys/${op.record.keyId}?hard=true`), 409, 'operator_key_revoke_only');
  });

  it("an operator key tied to a partner acts on that partner only: another partner's keys are refused and unchanged", async () => {
    const tied = await issueOperatorKey(w.db, () => NOW, { partnerId: 'ptn_b' });
    const own = await freshKey();
    const foreign = await issuePartnerKey(w.db, 'ptn_full', 'live', () => NOW);
    const loose = await issueOperatorKey(w.db, () => NOW);
    expectError(await del(keyPath('ptn_full', foreign.record.keyId), tied.key), 403, 'insufficient_scope', { required_scope: 'operator' });
    expectError(await del(`/api/v2/admin/keys/${foreign.record.keyId}`, tied.key), 404, 'key_not_found');
    expectError(await del(`/api/v2/admin/keys/${loose.record.keyId}`, tied.key), 404, 'key_not_found');
    assert.equal((await findApiKey(w.db, foreign.record.keyId))?.status, 'active');
    assert.equal((await findApiKey(w.db, loose.record.keyId))?.status, 'active');
    assert.equal((await del(keyPath('ptn_b', own.record.keyId), tied.key)).status, 200);
    const own2 = await freshKey();
    assert.equal((await del(`/api/v2/admin/keys/${own2.record.keyId}`, tied.key)).status, 200);
    assert.equal((await findApiKey(w.db, own.record.keyId))?.status, 'revoked');
    assert.equal((await findApiKey(w.db, own2.record.keyId))?.status, 'revoked');
  });

  it('a partner key gets 403 insufficient_scope; no key, a bad key or a revoked operator key 401', async () => {
    const k = await freshKey();
    const res = await del(keyPath('ptn_b', k.record.keyId), w.keys.b);
    expectError(res, 403, 'insufficient_scope', { required_scope: 'operator' });
    assert.equal((await findApiKey(w.db, k.record.keyId))?.status, 'active');
    expectError(await w.api.request('DELETE', keyPath('ptn_b', k.record.keyId)), 401, 'invalid_api_key');
    expectError(await del(keyPath('ptn_b', k.record.keyId), generateKey('operator').key), 401, 'invalid_api_key');
    const op = await issueOperatorKey(w.db, () => NOW);
    await w.db.updateTable('api_keys').set({ status: 'revoked' }).where('key_id', '=', op.record.keyId).execute();
    expectError(await del(keyPath('ptn_b', k.record.keyId), op.key), 401, 'invalid_api_key');
  });

  it('admin calls are audited with the operator key and the partner of the path, and rate limited', async () => {
    const k = await freshKey();
    const res = await del(keyPath('ptn_b', k.record.keyId));
    const [row] = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(row?.keyId, w.keyIds.operator);
    assert.equal(row?.partnerId, 'ptn_b');
    assert.equal(row?.route, '/api/v2/admin/partners/{partner_id}/keys/{key_id}');
    assert.match(res.headers.get('ratelimit') ?? '', /^limit=\d+, remaining=\d+, reset=\d+$/);
  });
});
