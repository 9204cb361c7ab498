import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { issueOperatorKey, issuePartnerKey, revokeKey } from '../../src/services/api-keys.ts';
import { toDeliveryLevelWire } from '../../src/domain/delivery-level.ts';
import { deliveryReport } from '../../src/services/delivery-level/report.ts';
import { upsertPartners } from '../../src/store/repositories/reference-data-repo.ts';
import { NO_FIGURES, NOW, seedDeliveryHistory } from '../support/delivery-history.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import { startTestApi, type TestApi } from '../support/http.ts';
import { describeEachStore } from '../support/stores.ts';
import { insertOutboxRows } from '../support/sync-world.ts';

const MIN = 60_000;
const ago = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();
const clock = () => new Date(NOW);

const DAY_WINDOW = { since: '2026-11-21T12:00:00Z', until: '2026-11-22T12:00:00Z' };

/** ptn_d holds crew:compliance:read alone; one event of a type it holds the scope of, one of a type it does not. */
async function seedScopedPartner(api: { db: Parameters<typeof upsertPartners>[0] }): Promise<void> {
  await upsertPartners(api.db, [
    {
      partner_id: 'ptn_d',
      name: 'Partner ptn_d',
      kind: 'customer',
      employer_id: 'emp_sync',
      tier: 'management',
      scope_overrides: JSON.stringify(['crew:compliance:read']),
      upgraded: 0,
      contract_scopes: null,
      rate_limit: null,
      created_at: ago(72 * 60 * MIN),
    },
  ]);
  const delivered = (eventId: string, eventType: string, sequence: number, deliveredAgo: number, tookMs: number) => ({
    event_id: eventId,
    partner_id: 'ptn_d',
    event_type: eventType,
    crew_unique_id: 'crew_1',
    occurred_at: ago(deliveredAgo + tookMs),
    body: '{}',
    status: 'delivered' as const,
    attempts: 1,
    next_attempt_at: ago(deliveredAgo + tookMs),
    locked_by: null,
    locked_until: null,
    created_at: ago(deliveredAgo + tookMs),
    delivered_at: ago(deliveredAgo),
    sequence,
    subject: `${eventType}:crew_1`,
  });
  await insertOutboxRows(api.db, [
    delivered('evt_d_compliance', 'crew.compliance.changed', 1, 20 * MIN, 300_000),
    delivered('evt_d_status', 'crew.status.changed', 2, 10 * MIN, 100_000),
  ]);
}

describeEachStore('GET /api/v2/events/delivery-stats: a partner reads its own delivery service level', ({ store }) => {
  let api: TestApi;
  const keys: Record<string, string> = {};
  const stats = (query = '', key = keys.a) => api.get(`/api/v2/events/delivery-stats${query}`, { key });

  before(async () => {
    const db = store().db;
    await seedDeliveryHistory(db);
    await seedScopedPartner({ db });
    api = await startTestApi(createApp({ db, config: loadConfig({}, {}), clock, logger: pino({ level: 'silent' }) }));
    for (const p of ['a', 'b', 'c', 'd']) keys[p] = (await issuePartnerKey(db, `ptn_${p}`, 'live', clock)).key;
    keys.aTest = (await issuePartnerKey(db, 'ptn_a', 'test', clock)).key;
  });
  after(async () => api?.close());

  it("answers the delivery report's figures for the calling partner alone, over the last 24 h by default", async () => {
    const report = await deliveryReport(store().db, { since: ago(24 * 60 * MIN), until: NOW });
    // ptn_d's key lacks a scope its events need (the test below); the others hold every event type's.
    const full = report.partners.filter(({ partnerId }) => partnerId !== 'ptn_d');
    assert.deepEqual(
      full.map((p) => p.partnerId),
      ['ptn_a', 'ptn_b', 'ptn_c'],
    );
    for (const { partnerId, level } of full) {
      const res = await stats('', keys[partnerId.slice('ptn_'.length)]);
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.deepEqual(res.json, { partner_id: partnerId, window: DAY_WINDOW, p99_target_seconds: 1200, ...toDeliveryLevelWire(level) });
    }
    const figures = async (key?: string) => {
      const { delivered, p50_seconds, p99_seconds, first_attempts, waiting } = (await stats('', key)).json;
      return { delivered, p50_seconds, p99_seconds, first_attempts, waiting };
    };
    // The known history (test/support/delivery-history.ts): each partner's own, never the others'.
    assert.deepEqual(await figures(keys.a), { delivered: 100, p50_seconds: 50, p99_seconds: 99, first_attempts: 100, waiting: 0 });
    assert.deepEqual(await figures(keys.b), { delivered: 5, p50_seconds: 1800, p99_seconds: 12_600, first_attempts: 7, waiting: 2 });
    assert.deepEqual((await stats('', keys.c)).json, { partner_id: 'ptn_c', window: DAY_WINDOW, p99_target_seconds: 1200, ...NO_FIGURES });
  });

  it('takes the window in hours: 1 h, then 72 h reaching the delivery two days ago', async () => {
    const hour = (await stats('?hours=1')).json;
    assert.deepEqual(hour.window, { since: '2026-11-22T11:00:00Z', until: '2026-11-22T12:00:00Z' });
    assert.deepEqual(
      [hour.delivered, hour.p50_seconds, hour.p99_seconds, hour.first_attempts, hour.first_attempts_delivered],
      [60, 30, 60, 59, 54],
      "ptn_b's first attempt 30 minutes ago is in the hour's window, and not among ptn_a's",
    );
    const bHour = (await stats('?hours=1', keys.b)).json;
    assert.deepEqual([bHour.delivered, bHour.first_attempts, bHour.waiting], [0, 1, 2]);
    const days = (await stats('?hours=72')).json;
    assert.deepEqual([days.delivered, days.p50_seconds, days.p99_seconds, days.first_attempts], [101, 51, 100, 101]);
  });

  it('counts the event types the events feed lists for the key: their scope held, none for a test key', async () => {
    const d = await stats('', keys.d);
    assert.deepEqual(
      [d.json.delivered, d.json.p50_seconds, d.json.first_attempts],
      [1, 300, 0],
      'only the crew.compliance.changed event: the key lacks crew:status:subscribe',
    );
    const test = await stats('', keys.aTest);
    assert.equal(test.status, 200);
    assert.deepEqual(test.json, { partner_id: 'ptn_a', window: DAY_WINDOW, p99_target_seconds: 1200, ...NO_FIGURES });
  });

  it('refuses an hour count out of 1..720 in one 422, and any key but a partner key in force with a 401', async () => {
    expectIssues(await stats('?hours=0'), [
      {
        type: 'greater_than_equal',
        loc: ['query', 'hours'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ]);
    for (const hours of ['721', '1.5', 'day']) assert.equal((await stats(`?hours=${hours}`)).status, 422, hours);
    const db = store().db;
    const operator = await issueOperatorKey(db, clock);
    const revoked = await issuePartnerKey(db, 'ptn_a', 'live', clock);
    await revokeKey(db, 'ptn_a', revoked.record.keyId, false, clock);
    expectError(await api.get('/api/v2/events/delivery-stats'), 401, 'invalid_api_key');
    for (const key of ['svc_live_nonsense', operator.key, revoked.key]) {
      expectError(await stats('', key), 401, 'invalid_api_key');
    }
  });
});
