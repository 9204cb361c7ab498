import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hashKey } from '../../src/domain/api-keys.ts';
import { issueOperatorKey, issuePartnerKey, revokeKey } from '../../src/services/api-keys.ts';
import type { Db } from '../../src/store/database.ts';
import { findApiKey, findApiKeyByHash, listApiKeys } from '../../src/store/repositories/api-keys-repo.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { upsertEmployers, upsertPartners } from '../../src/store/repositories/reference-data-repo.ts';
import { describeEachStore } from '../support/stores.ts';

const clock = () => new Date('2026-11-22T10:00:00.000Z');

/** Partner ptn_1 of employer emp_1, upserted (as often as asked): what each test that issues a key reads. */
async function seedPartner(db: Db): Promise<void> {
  await upsertEmployers(db, [{ employer_id: 'emp_1', name: 'North Sea Shipping' }]);
  await upsertPartners(db, [
    {
      partner_id: 'ptn_1',
      name: 'Partner',
      kind: 'customer',
      employer_id: 'emp_1',
      tier: 'basic',
      scope_overrides: JSON.stringify(['vessels:fleet:read']),
      upgraded: 1,
      contract_scopes: null,
      rate_limit: 5,
      created_at: clock().toISOString(),
    },
  ]);
}

describeEachStore('API keys in the store', ({ store }) => {
  it('partners round-trip with their JSON and boolean columns', async () => {
    const db = store().db;
    await seedPartner(db);
    assert.deepEqual(await findPartner(db, 'ptn_1'), {
      partnerId: 'ptn_1',
      name: 'Partner',
      kind: 'customer',
      employerId: 'emp_1',
      tier: 'basic',
      scopeOverrides: ['vessels:fleet:read'],
      upgraded: true,
      contractScopes: null,
      rateLimit: 5,
    });
  });

  it('an issued key is found by its hash and never stored in clear', async () => {
    const db = store().db;
    await seedPartner(db);
    const issued = await issuePartnerKey(db, 'ptn_1', 'test', clock);
    const found = await findApiKeyByHash(db, hashKey(issued.key));
    assert.equal(found?.keyId, issued.record.keyId);
    assert.equal(found?.kind, 'test');
    assert.equal(found?.last4, issued.key.slice(-4));
    const raw = JSON.stringify(await db.selectFrom('api_keys').selectAll().execute());
    assert.ok(!raw.includes(issued.key), 'the full key must not be in the store');
  });

  it('issuing a key for an unknown partner fails and stores nothing', async () => {
    const before = (await listApiKeys(store().db)).length;
    await assert.rejects(issuePartnerKey(store().db, 'ptn_nope', 'live', clock), { code: 'partner_not_found' });
    assert.equal((await listApiKeys(store().db)).length, before);
  });

  it('revoke keeps the row; a second revoke is a no-op; hard delete removes it', async () => {
    const db = store().db;
    await seedPartner(db);
    const { record } = await issuePartnerKey(db, 'ptn_1', 'live', clock);
    await revokeKey(db, 'ptn_1', record.keyId, false, clock);
    const revoked = await findApiKey(db, record.keyId);
    assert.equal(revoked?.status, 'revoked');
    await revokeKey(db, 'ptn_1', record.keyId, false, () => new Date('2030-01-01T00:00:00Z'));
    assert.equal((await findApiKey(db, record.keyId))?.revokedAt, revoked?.revokedAt);
    await revokeKey(db, 'ptn_1', record.keyId, true, clock);
    assert.equal(await findApiKey(db, record.keyId), undefined);
  });

  it("a key of another partner is not found, and operator keys can't be hard-deleted", async () => {
    const db = store().db;
    await seedPartner(db);
    const { record } = await issuePartnerKey(db, 'ptn_1', 'live', clock);
    await assert.rejects(revokeKey(db, 'ptn_other', record.keyId, false, clock), { code: 'key_not_found' });
    const op = await issueOperatorKey(db, clock, { partnerId: 'ptn_1' });
    await assert.rejects(revokeKey(db, 'ptn_1', op.record.keyId, true, clock), { code: 'operator_key_revoke_only' });
    assert.equal((await findApiKey(db, op.record.keyId))?.status, 'active');
  });
});
