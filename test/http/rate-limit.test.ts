import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { createApp } from '../../src/http/app.ts';
import { createAuthenticator } from '../../src/services/auth-cache.ts';
import { expectError } from '../support/expect.ts';
import { startTestApi, type TestApi } from '../support/http.ts';
import { capturingLogger } from '../support/log-capture.ts';
import { NOW, startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const ME = '/api/v2/partners/me';
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describeEachStore('rate limit', ({ store }) => {
  const partnerOf = (key: string) => Object.entries(w.keys).find(([name, k]) => k === key && name.startsWith('ptn_'))![0];
  const setRateLimit = async (partnerId: string, limit: number) => {
    await w.db.updateTable('partners').set({ rate_limit: limit }).where('partner_id', '=', partnerId).execute();
  };
  let w: World;
  let second: TestApi;
  let secondApp: ReturnType<typeof createApp>;
  const secondLog = capturingLogger('warn');
  let now = NOW;
  before(async () => {
    // Partner changes reach the app at its next call (no 500 ms wait for the auth version): the tests change rate_limit.
    w = await startWorld(store().db, { deps: { authenticator: createAuthenticator(store().db, { versionCheckMs: 0 }) } });
    // A second server process over the same store.
    secondApp = createApp({ db: w.db, config: w.config, clock: () => now, logger: secondLog.logger });
    second = await startTestApi(secondApp);
  });
  after(async () => {
    await second.close();
    await secondApp.close();
    secondLog.check('the second server');
    await w.close();
  });
  beforeEach(() => {
    // 10:00:18 is 18 s into a 60 s window.
    now = at(18);
    w.setNow(now);
  });

  it('every authenticated response carries RateLimit-Policy and RateLimit; 429 with Retry-After past the limit', async () => {
    const key = await w.partnerWith(['vessels:fleet:read'], undefined, { rateLimit: 3 });
    const ok = await w.api.get(ME, { key });
    assert.equal(ok.headers.get('ratelimit-policy'), '3;w=60');
    assert.equal(ok.headers.get('ratelimit'), 'limit=3, remaining=2, reset=42');
    const forbidden = await w.api.get('/api/v2/employers/me/crew/crew_ana/documents', { key });
    expectError(forbidden, 403, 'insufficient_scope');
    assert.equal(forbidden.headers.get('ratelimit'), 'limit=3, remaining=1, reset=42');
    const notFound = await w.api.get('/api/v2/employers/me/crew/nobody/profile', { key });
    assert.equal(notFound.headers.get('ratelimit'), 'limit=3, remaining=0, reset=42');
    const limited = await w.api.get(ME, { key });
    expectError(limited, 429, 'rate_limited');
    assert.equal(limited.headers.get('retry-after'), '42');
    assert.equal(limited.headers.get('ratelimit'), 'limit=3, remaining=0, reset=42');
    assert.equal((await w.auditOf(limited.headers.get('x-request-id')!))[0]?.status, 429);
  });

  it('the count is shared by every process on the store, and per partner', async () => {
    const key = await w.partnerWith(['vessels:fleet:read'], undefined, { rateLimit: 2 });
    assert.equal((await w.api.get(ME, { key })).status, 200);
    assert.equal((await second.get(ME, { key })).status, 200);
    expectError(await second.get(ME, { key }), 429, 'rate_limited');
    expectError(await w.api.get(ME, { key }), 429, 'rate_limited');
    assert.equal((await second.get(ME, { key: w.keys.full })).status, 200, 'another partner is not affected');
  });

  it('a rate_limit lowered within the window holds from the next call: no 200 after remaining=0', async () => {
    // 100 a window: tokens are claimed 2 at a time, so the process holds some when the limit drops.
    const key = await w.partnerWith(['vessels:fleet:read'], undefined, { rateLimit: 100 });
    for (let i = 0; i < 3; i++) assert.equal((await w.api.get(ME, { key })).status, 200);
    await setRateLimit(partnerOf(key), 4);
    const last = await w.api.get(ME, { key });
    assert.equal(last.status, 200);
    assert.equal(last.headers.get('ratelimit'), 'limit=4, remaining=0, reset=42');
    const refused = await second.get(ME, { key });
    expectError(refused, 429, 'rate_limited');
    expectError(await w.api.get(ME, { key }), 429, 'rate_limited');
    assert.equal(refused.headers.get('ratelimit'), 'limit=4, remaining=0, reset=42');
    await setRateLimit(partnerOf(key), 6);
    assert.equal((await w.api.get(ME, { key })).status, 200, 'a raised limit admits again at once');
  });

  it('a new window starts the count again', async () => {
    const key = await w.partnerWith(['vessels:fleet:read'], undefined, { rateLimit: 1 });
    assert.equal((await w.api.get(ME, { key })).status, 200);
    expectError(await w.api.get(ME, { key }), 429, 'rate_limited');
    now = at(60);
    w.setNow(now);
    const fresh = await w.api.get(ME, { key });
    assert.equal(fresh.status, 200);
    assert.equal(fresh.headers.get('ratelimit'), 'limit=1, remaining=0, reset=60');
  });

  it('both live and test keys of a partner draw on one limit', async () => {
    const me = async (key: string) => (await w.api.get(ME, { key })).headers.get('ratelimit');
    const before = Number(/remaining=(\d+)/.exec((await me(w.keys.full))!)![1]);
    const after = Number(/remaining=(\d+)/.exec((await me(w.keys.fullTest))!)![1]);
    assert.equal(after, before - 1);
  });

  it('calls without a valid key are not counted and carry no rate limit headers', async () => {
    const key = await w.partnerWith(['vessels:fleet:read'], undefined, { rateLimit: 1 });
    // Another last character, whatever the key's own is: the wrong key is never the key.
    const wrong = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    for (let i = 0; i < 3; i++) {
      const res = await w.api.get(ME, { key: wrong });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('ratelimit'), null);
    }
    assert.equal((await w.api.get(ME, { key })).status, 200);
    assert.equal((await w.api.get('/_internal/health')).headers.get('ratelimit'), null);
  });

  it('a partner without its own limit gets the configured default', async () => {
    const res = await w.api.get(ME, { key: w.keys.b });
    assert.equal(res.headers.get('ratelimit-policy'), `${w.config.rateLimitDefault};w=60`);
  });
});
