import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { insertDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { replaceConsents } from '../../src/store/repositories/reference-data-repo.ts';
import { expectError } from '../support/expect.ts';
import { startTestApi, type TestApi } from '../support/http.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';
import { insertOutboxRows, testClock } from '../support/sync-world.ts';

const DAY = 86_400_000;

describeEachStore('GET /api/v2/events/{event_id}/attempts: a partner sees its own attempts, gated like the feed', ({ store }) => {
  const tc = testClock();
  let api: TestApi;
  let live: string;
  let test: string;
  const get = (eventId: string, key = live) => api.get(`/api/v2/events/${eventId}/attempts`, { key });

  async function event(eventId: string, o: { partnerId?: string; type?: string; status?: 'pending' | 'dead'; createdAt?: string } = {}) {
    const type = o.type ?? 'crew.status.changed';
    const partnerId = o.partnerId ?? 'ptn_a';
    await insertOutboxRows(store().db, [
      {
        event_id: eventId,
        partner_id: partnerId,
        event_type: type,
        crew_unique_id: 'crew_1',
        occurred_at: tc.iso(),
        body: JSON.stringify({
          schema_version: 1,
          event_id: eventId,
          event_type: type,
          partner_id: partnerId,
          data: { crew_unique_id: 'crew_1' },
        }),
        status: o.status ?? 'pending',
        attempts: 2,
        next_attempt_at: '2026-11-22T11:00:00.000Z',
        locked_by: null,
        locked_until: null,
        created_at: o.createdAt ?? tc.iso(),
        delivered_at: null,
        sequence: null,
        subject: 'status:crew_1',
      },
    ]);
    await insertDeliveryAttempts(store().db, [
      {
        eventId,
        attemptNo: 1,
        attemptedAt: '2026-11-22T10:00:00.000Z',
        url: 'https://hooks.partner.example/secret-path',
        statusCode: null,
        latencyMs: 3,
        error: 'connect ECONNREFUSED 10.1.2.3:443',
        responseBody: null,
        outcome: 'retry',
      },
      {
        eventId,
        attemptNo: 2,
        attemptedAt: '2026-11-22T10:00:02.000Z',
        url: 'https://hooks.partner.example/secret-path',
        statusCode: 500,
        latencyMs: 41,
        error: null,
        responseBody: `${'é'.repeat(199)}✓${'x'.repeat(1800)}`,
        outcome: 'retry',
      },
    ]);
  }

  before(async () => {
    const db = store().db;
    const f = miniFixture();
    f.partners.push({ partner_id: 'ptn_b', name: 'Beta', kind: 'customer', employer_id: 'emp_a', tier: 'management' });
    await loadFixtures(db, [writeFixture(f)], tc.clock);
    api = await startTestApi(createApp({ db, config: loadConfig({}, {}), clock: tc.clock, logger: pino({ level: 'silent' }) }));
    live = (await issuePartnerKey(db, 'ptn_a', 'live', tc.clock)).key;
    test = (await issuePartnerKey(db, 'ptn_a', 'test', tc.clock)).key;
    await event('evt_mine');
    await event('evt_theirs', { partnerId: 'ptn_b' });
    await event('evt_profile', { type: 'crew.profile.updated' });
    await event('evt_old', { createdAt: new Date(tc.clock().getTime() - 31 * DAY).toISOString() });
  });
  after(async () => api?.close());

  it('lists time, duration, status code or error class, outcome and next attempt; no URL, error text or more than 200 characters of the answer', async () => {
    const res = await get('evt_mine');
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(res.json, {
      event_id: 'evt_mine',
      sequence: null,
      delivery_status: 'retrying',
      next_attempt_at: '2026-11-22T11:00:00Z',
      attempts: [
        {
          attempt_no: 1,
          attempted_at: '2026-11-22T10:00:00Z',
          duration_ms: 3,
          status_code: null,
          error_class: 'connection_refused',
          outcome: 'retry',
          response_excerpt: null,
        },
        {
          attempt_no: 2,
          attempted_at: '2026-11-22T10:00:02Z',
          duration_ms: 41,
          status_code: 500,
          error_class: null,
          outcome: 'retry',
          response_excerpt: `${'é'.repeat(199)}✓`,
        },
      ],
    });
    assert.doesNotMatch(res.bytes.toString('utf8'), /secret-path|10\.1\.2\.3|xxx/);
  });

  it("is a 404 for another partner's event, one past the retention, a type without its scope or consent, a test key, an unknown id", async () => {
    for (const id of ['evt_theirs', 'evt_old', 'evt_profile', 'evt_unknown']) {
      expectError(await get(id), 404, 'not_found');
    }
    assert.equal((await get('evt_mine', test)).status, 404, 'a test key');
    await replaceConsents(store().db, 'crew_1', 'ptn_a', ['documents']);
    assert.equal((await get('evt_mine')).status, 404, 'the status consent withdrawn: hidden as in the feed');
    await replaceConsents(store().db, 'crew_1', 'ptn_a', ['status', 'documents']);
    assert.equal((await get('evt_mine')).status, 200);
  });
});
