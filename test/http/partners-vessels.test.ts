import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BASIC_TIER_SCOPES, FULL_TIER_SCOPES } from '../../src/domain/scopes.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { replaceContractVessels, upsertEmployers, upsertPartners } from '../../src/store/repositories/reference-data-repo.ts';
import { expectError } from '../support/expect.ts';
import { describeEachWorld, NOW } from '../support/read-api-world.ts';

const ME = '/api/v2/partners/me';
const VESSELS = '/api/v2/employers/me/vessels';

describeEachWorld('partner identity and vessels', (w) => {
  /** A customer partner on emp_a configured through scope_overrides. */
  async function overridePartner(id: string, overrides: string[], upgraded: boolean): Promise<string> {
    await upsertPartners(w.db, [
      {
        partner_id: id,
        name: id,
        kind: 'customer',
        employer_id: 'emp_a',
        tier: 'management',
        scope_overrides: JSON.stringify(overrides),
        upgraded: upgraded ? 1 : 0,
        contract_scopes: null,
        rate_limit: 42,
        created_at: NOW.toISOString(),
      },
    ]);
    return (await issuePartnerKey(w.db, id, 'live', () => NOW)).key;
  }

  it('GET partners/me: identity, mode, key id, sorted effective scopes and rate limit', async () => {
    const res = await w.api.get(ME, { key: w.keys.full });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {
      partner_id: 'ptn_full',
      name: 'Full Management',
      kind: 'customer',
      tier: 'management',
      mode: 'live',
      key_id: w.keyIds.full,
      scopes: [...FULL_TIER_SCOPES].sort(),
      rate_limit: { limit: w.config.rateLimitDefault, window_seconds: 60 },
      webhook_public_keys: [],
    });
    assert.equal((await w.api.get(ME, { key: w.keys.fullTest })).json.mode, 'test');
    assert.deepEqual((await w.api.get(ME, { key: w.keys.basic })).json.scopes, [...BASIC_TIER_SCOPES].sort());
  });

  it('scope_overrides: exactly the list, tier ignored; crew:profile:read widens only when upgraded', async () => {
    const plain = await w.api.get(ME, { key: await overridePartner('ptn_over', ['crew:profile:read', 'vessels:fleet:read'], false) });
    assert.deepEqual(plain.json.scopes, ['crew:profile:read', 'vessels:fleet:read']);
    assert.deepEqual(plain.json.rate_limit, { limit: 42, window_seconds: 60 });
    const upgraded = await w.api.get(ME, { key: await overridePartner('ptn_upg', ['crew:profile:read'], true) });
    assert.deepEqual(upgraded.json.scopes, ['crew:contact:read', 'crew:professional:read', 'crew:profile:read']);
  });

  it('external partners get exactly their contract scopes; the full-profile alias expands, connections gate nothing', async () => {
    const res = await w.api.get(ME, { key: await w.partnerWith(['crew:profile:full:read', 'connections:read']) });
    assert.equal(res.json.kind, 'external');
    assert.equal(res.json.tier, null);
    assert.deepEqual(res.json.scopes, ['connections:read', 'crew:experience:read', 'crew:personal:read', 'crew:profile:full:read']);
  });

  it('vessels: live keys see live vessels, test keys test-flagged ones, another partner its own', async () => {
    const ids = async (key: string) => (await w.api.get(VESSELS, { key })).json.items.map((v: any) => v.vessel_id);
    assert.deepEqual(await ids(w.keys.full), ['ves_a1', 'ves_a2']);
    assert.deepEqual(await ids(w.keys.fullTest), ['ves_at']);
    assert.deepEqual(await ids(w.keys.b), ['ves_b1']);
    assert.deepEqual(await ids(await w.partnerWith(['vessels:fleet:read'])), ['ves_a1']);
  });

  it('vessels: identity fields only, null IMO/MMSI kept as null', async () => {
    const res = await w.api.get(VESSELS, { key: w.keys.full });
    assert.deepEqual(res.json.items[1], {
      vessel_id: 'ves_a2',
      vessel_name: 'MV ves_a2',
      imo: null,
      mmsi: null,
      flag_state: 'GB',
      vessel_type: 'bulk_carrier',
    });
  });

  it('vessels: empty items for a partner without vessels', async () => {
    await upsertEmployers(w.db, [{ employer_id: 'emp_empty', name: 'Empty' }]);
    await upsertPartners(w.db, [
      {
        partner_id: 'ptn_empty',
        name: 'Empty',
        kind: 'customer',
        employer_id: 'emp_empty',
        tier: 'vessel',
        scope_overrides: null,
        upgraded: 0,
        contract_scopes: null,
        rate_limit: null,
        created_at: NOW.toISOString(),
      },
    ]);
    const key = (await issuePartnerKey(w.db, 'ptn_empty', 'live', () => NOW)).key;
    assert.deepEqual((await w.api.get(VESSELS, { key })).json, { items: [] });
    const external = await w.partnerWith(['vessels:fleet:read']);
    const partnerId = (await w.api.get(ME, { key: external })).json.partner_id;
    await replaceContractVessels(w.db, partnerId, []);
    assert.deepEqual((await w.api.get(VESSELS, { key: external })).json, { items: [] });
  });

  it('vessels: without vessels:fleet:read, 403 insufficient_scope naming it, with the Bearer challenge', async () => {
    const res = await w.api.get(VESSELS, { key: await w.partnerWith(['crew:profile:read']) });
    expectError(res, 403, 'insufficient_scope', { required_scope: 'vessels:fleet:read' });
    assert.equal(res.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="vessels:fleet:read"');
  });
});
