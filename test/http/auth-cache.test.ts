import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createAuthenticator } from '../../src/services/auth-cache.ts';
import { cliChild } from '../support/cli.ts';
import { expectError } from '../support/expect.ts';
import { startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const ME = '/api/v2/partners/me';

describeEachStore('authenticated keys are cached in process; revocations reach every process', ({ store, url }) => {
  let w: World;
  /** The app's monotonic clock for the cache, moved by hand. */
  let t = 0;
  before(async () => {
    w = await startWorld(store().db, { deps: { authenticator: createAuthenticator(store().db, { now: () => t }) } });
  });
  after(() => w.close());

  it('revoked or deleted through this process: refused at once', async () => {
    for (const hard of [false, true]) {
      const key = await w.partnerWith(['vessels:fleet:read']);
      const me = await w.api.get(ME, { key });
      assert.equal(me.status, 200);
      const path = `/api/v2/admin/partners/${me.json.partner_id}/keys/${me.json.key_id}${hard ? '?hard=true' : ''}`;
      const res = await w.api.request('DELETE', path, { key: w.keys.operator });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      expectError(await w.api.get(ME, { key }), 401, 'invalid_api_key');
    }
  });

  it('revoked by another process: served from the cache until the next check of the store, refused after it', async () => {
    const key = await w.partnerWith(['vessels:fleet:read']);
    const keyId = (await w.api.get(ME, { key })).json.key_id as string;
    const revoked = await cliChild(['admin', 'revoke-key', '--db', url(), '--key', keyId]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await w.api.get(ME, { key })).status, 200, 'the cached answer, before the revocation counter is read again');
    t += 500;
    expectError(await w.api.get(ME, { key }), 401, 'invalid_api_key');
  });

  it('a partner changed by another writer (its rate limit): the new value within one check', async () => {
    const key = await w.partnerWith(['vessels:fleet:read'], undefined, { rateLimit: 50 });
    const first = await w.api.get(ME, { key });
    assert.equal(first.headers.get('ratelimit-policy'), '50;w=60');
    await store().db.updateTable('partners').set({ rate_limit: 70 }).where('partner_id', '=', first.json.partner_id).execute();
    assert.equal((await w.api.get(ME, { key })).headers.get('ratelimit-policy'), '50;w=60');
    t += 500;
    assert.equal((await w.api.get(ME, { key })).headers.get('ratelimit-policy'), '70;w=60');
  });
});
