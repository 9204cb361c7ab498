import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { FULL_TIER_SCOPES } from '../../src/domain/scopes.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { createAuthenticator } from '../../src/services/auth-cache.ts';
import { replayDeadLetters } from '../../src/services/dead-letters.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { fleetDiffStep } from '../../src/sync/fleet-diff-step.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { startTestApi, type TestApi } from '../support/http.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { describeEachStore } from '../support/stores.ts';
import { SECRET, seedEndpoint, testClock, testDeps } from '../support/sync-world.ts';

/*
 * Issue 29, item 3: a crew.compliance.changed built while the partner held crew:medical:read can
 * carry a medical expiry in next_expiry_date. Such an event follows the medical rule at every door
 * (docs/webhooks.md, "Medical data in payloads"): once the scope is gone it is not sent, not
 * replayed and not listed by the events feed; one whose date is not medical still is.
 */
const MEDICAL_EXPIRY = '2027-06-01';
const TYPE = 'crew.compliance.changed';

/** crew_1, master on ves_a, consents to everything; `brm` adds a training certificate valid until `brm`. */
function fleet(brm?: string) {
  const f = miniFixture();
  f.consents = [{ crew_unique_id: 'crew_1', partner_id: 'ptn_a', categories: ['status', 'profile', 'documents', 'compliance'] }];
  if (brm) {
    f.documents.push({
      document_id: 'doc_brm',
      crew_unique_id: 'crew_1',
      type: 'certificate',
      category: 'training',
      title: 'BRM',
      verification_status: 'verified',
      expiry_date: brm,
      classification: { document_class: 'training', category_code: 'brm' },
    });
  }
  return f;
}

describeEachStore('a compliance summary holding a medical expiry follows the medical rule', ({ store }) => {
  const tc = testClock();
  const config = loadConfig({}, { complianceWindowDays: 90 });
  let receiver: Receiver;
  let answer = 500;
  let api: TestApi;
  let key: string;
  const sync = () => runSync(store().db, testDeps(tc), { diff: fleetDiffStep(config) });
  const feed = async () => {
    const res = await api.get(`/api/v2/events?type=${TYPE}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return (res.json.items as Array<{ event: any }>).map((i) => i.event);
  };
  const setScopes = (scopes: readonly string[] | null) =>
    store()
      .db.updateTable('partners')
      .set({ scope_overrides: scopes && JSON.stringify(scopes) })
      .where('partner_id', '=', 'ptn_a')
      .execute();
  const withoutMedical = FULL_TIER_SCOPES.filter((s) => s !== 'crew:medical:read');

  before(async () => {
    const db = store().db;
    receiver = await startReceiver(SECRET, () => ({ status: answer }));
    await loadFixtures(db, ['data/requirements.json', writeFixture(fleet())], tc.clock);
    await seedEndpoint(db, 'ptn_a', receiver.url, SECRET, [TYPE]);
    await sync();
    // The key's scopes are read again on every call, so the plain-SQL scope change is seen at once.
    const authenticator = createAuthenticator(db, { versionCheckMs: 0 });
    api = await startTestApi(createApp({ db, config, clock: tc.clock, logger: pino({ level: 'silent' }), authenticator }));
    key = (await issuePartnerKey(db, 'ptn_a', 'live', tc.clock)).key;
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('built with the scope and still pending when it goes: not sent, not listed; the partner gets the summary without it', async () => {
    const db = store().db;
    tc.advance(60_000);
    await loadFixtures(db, ['data/requirements.json', writeFixture(fleet('2030-01-01'))], tc.clock);
    answer = 500;
    await sync();
    const [medical] = await feed();
    assert.equal(medical?.data.next_expiry_date, MEDICAL_EXPIRY, 'the medical fitness certificate expires first');
    assert.ok(
      receiver.received.some((r) => r.eventId === medical.event_id),
      'attempted while the scope was held',
    );

    await setScopes(withoutMedical);
    assert.deepEqual(await feed(), [], 'the feed no longer lists it');
    answer = 204;
    const sentBefore = receiver.received.length;
    tc.advance(6 * 60_000);
    await sync();
    const stored = await findOutboxEvent(db, medical.event_id);
    assert.deepEqual([stored?.status, stored?.suppressedReason], ['suppressed', 'scope']);
    const sent = receiver.received.slice(sentBefore).map((r) => JSON.parse(r.body));
    assert.ok(
      sent.every((e) => e.data.next_expiry_date !== MEDICAL_EXPIRY),
      'no medical expiry leaves after the scope went',
    );
    const listed = await feed();
    assert.ok(
      listed.every((e) => e.data.next_expiry_date !== MEDICAL_EXPIRY),
      JSON.stringify(listed),
    );
    assert.ok(
      listed.some((e) => e.data.next_expiry_date === '2030-01-01'),
      'the summary without medical rows (dated by the BRM) instead',
    );
    assert.ok(
      sent.some((e) => e.data.next_expiry_date === '2030-01-01'),
      'and it is delivered',
    );
  });

  it('a dead-lettered one is not replayed once the scope is gone; one whose date is not medical still is', async () => {
    const db = store().db;
    await setScopes(null);
    tc.advance(60_000);
    // A new BRM expiring first: the summary's date is no longer medical, and a medical one follows it.
    await loadFixtures(db, ['data/requirements.json', writeFixture(fleet('2027-01-10'))], tc.clock);
    answer = 400;
    await sync();
    tc.advance(60_000);
    await loadFixtures(db, ['data/requirements.json', writeFixture(fleet('2027-12-31'))], tc.clock);
    await sync();
    const dates = new Map((await feed()).map((e) => [e.data.next_expiry_date, e.event_id]));
    assert.ok(dates.has('2027-01-10') && dates.has(MEDICAL_EXPIRY), JSON.stringify([...dates.keys()]));

    await setScopes(withoutMedical);
    const result = await replayDeadLetters(db, {}, tc.clock);
    const skipped = new Map(result.skipped.map((s) => [s.eventId, s.reason]));
    assert.equal(skipped.get(dates.get(MEDICAL_EXPIRY)), 'scope');
    assert.ok(
      result.replayed.some((d) => d.eventId === dates.get('2027-01-10')),
      'the summary dated by the BRM is replayed',
    );
    assert.ok((await feed()).some((e) => e.event_id === dates.get('2027-01-10')));
    await setScopes(null);
  });
});
