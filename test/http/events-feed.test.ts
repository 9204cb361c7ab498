import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { takeSequences } from '../../src/store/repositories/event-sequences-repo.ts';
import { replaceConsents } from '../../src/store/repositories/reference-data-repo.ts';
import { fleetDiffStep } from '../../src/sync/fleet-diff-step.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { startTestApi, type TestApi } from '../support/http.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { insertOutboxRows, SECRET, seedEndpoint, testClock, testDeps } from '../support/sync-world.ts';

const ALL = ['status', 'profile', 'documents', 'compliance'];
const DAY = 86_400_000;

function fleet(change = false) {
  const f = miniFixture();
  f.consents = [{ crew_unique_id: 'crew_1', partner_id: 'ptn_a', categories: ALL }];
  if (change) {
    f.crew[0].background_check_status = 'clear';
    f.documents.push({
      document_id: 'doc_cook',
      crew_unique_id: 'crew_1',
      type: 'certificate',
      category: 'training',
      title: "Ship's cook",
      verification_status: 'verified',
      no_expiry: true,
      classification: { document_class: 'training', category_code: 'ships_cook' },
    });
  }
  return f;
}

describeEachStore('GET /api/v2/events: the events created for the partner', ({ store }) => {
  const tc = testClock();
  const config = loadConfig({}, { complianceWindowDays: 90 });
  let receiver: Receiver;
  let api: TestApi;
  let live: string;
  let test: string;
  const feed = async (query = '', key = live) => {
    const res = await api.get(`/api/v2/events${query}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json as { items: Array<{ event: any; delivery_status: string; sequence: number; subject: string }>; next_cursor?: string };
  };
  const sync = (retentionDays?: number) => runSync(store().db, testDeps(tc), { diff: fleetDiffStep(config), retentionDays });

  before(async () => {
    const db = store().db;
    receiver = await startReceiver(SECRET);
    await loadFixtures(db, ['data/requirements.json', writeFixture(fleet())], tc.clock);
    await seedEndpoint(db, 'ptn_a', receiver.url, SECRET, [...EVENT_TYPES]);
    await sync();
    tc.advance(60_000);
    await loadFixtures(db, ['data/requirements.json', writeFixture(fleet(true))], tc.clock);
    await sync();
    api = await startTestApi(createApp({ db, config, clock: tc.clock, logger: pino({ level: 'silent' }) }));
    live = (await issuePartnerKey(db, 'ptn_a', 'live', tc.clock)).key;
    test = (await issuePartnerKey(db, 'ptn_a', 'test', tc.clock)).key;
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('lists exactly the envelopes that were delivered, byte for byte, marked delivered', async () => {
    assert.deepEqual(receiver.received.map((r) => r.eventType).sort(), ['crew.document.processed', 'crew.status.changed']);
    const { items, next_cursor } = await feed();
    assert.equal(next_cursor, undefined);
    const delivered = new Map(receiver.received.map((r) => [r.eventId, r.body]));
    assert.deepEqual(items.map((i) => i.event.event_id).sort(), [...delivered.keys()].sort());
    for (const item of items) {
      assert.equal(JSON.stringify(item.event), delivered.get(item.event.event_id));
      assert.equal(item.delivery_status, 'delivered');
    }
  });

  it('lists in sequence order, each item with the sequence and subject its envelope carries; after_sequence starts past a number', async () => {
    const { items } = await feed();
    assert.deepEqual(
      items.map((i) => i.sequence),
      items.map((_, n) => n + 1),
      "the partner's events, numbered from 1 without a gap",
    );
    for (const item of items) {
      assert.equal(item.event.sequence, item.sequence);
      assert.equal(item.event.subject, item.subject);
    }
    const status = items.find((i) => i.event.event_type === 'crew.status.changed')!;
    assert.equal(status.subject, 'status:crew_1');
    const doc = items.find((i) => i.event.event_type === 'crew.document.processed')!;
    assert.equal(doc.subject, `document:${doc.event.data.document_id}`);
    assert.deepEqual(
      (await feed(`?after_sequence=${items[1]!.sequence}`)).items.map((i) => i.sequence),
      items.slice(2).map((i) => i.sequence),
    );
    assert.deepEqual((await feed(`?after_sequence=${items.at(-1)!.sequence}`)).items, []);
  });

  it('pages in sequence order with a signed cursor bound to the filters', async () => {
    const all = (await feed()).items.map((i) => i.event.event_id);
    const seen: string[] = [];
    let page = await feed('?limit=1');
    let pages = 1;
    for (;;) {
      assert.equal(page.items.length, 1);
      seen.push(...page.items.map((i) => i.event.event_id));
      if (!page.next_cursor) break;
      page = await feed(`?limit=1&cursor=${page.next_cursor}`);
      pages++;
    }
    assert.deepEqual(seen, all);
    assert.equal(pages, all.length);
    const docs = (await feed('?type=crew.document.processed')).items;
    assert.ok(docs.length > 0 && docs.every((i) => i.event.event_type === 'crew.document.processed'));
    assert.deepEqual((await feed('?crew_unique_id=crew_2')).items, []);
    assert.equal((await feed('?crew_unique_id=crew_1')).items.length, all.length);
  });

  it('refuses bad input in one 422, a tampered cursor or one used with other filters included', async () => {
    const cursor = (await feed('?limit=1')).next_cursor!;
    const bad = await api.get('/api/v2/events?limit=0&type=crew.exploded', { key: live });
    assert.equal(bad.status, 422);
    assert.deepEqual(
      bad.json.detail.map((d: any) => [d.type, d.loc.join('.')]),
      [
        ['greater_than_equal', 'query.limit'],
        ['literal_error', 'query.type'],
      ],
    );
    for (const query of [`cursor=${cursor}x`, `cursor=${cursor}&crew_unique_id=crew_2`]) {
      const res = await api.get(`/api/v2/events?${query}`, { key: live });
      assert.equal(res.status, 422, query);
      assert.deepEqual(
        res.json.detail.map((d: any) => [d.type, d.loc.join('.'), d.msg]),
        [['value_error', 'query.cursor', 'Value error, invalid cursor']],
      );
    }
    const both = await api.get(`/api/v2/events?cursor=${cursor}&after_sequence=1`, { key: live });
    assert.equal(both.status, 422);
    assert.deepEqual(
      both.json.detail.map((d: any) => [d.type, d.loc.join('.')]),
      [['value_error', 'query.after_sequence']],
    );
    assert.equal((await api.get('/api/v2/events?after_sequence=-1', { key: live })).status, 422);
    assert.equal((await api.get(`/api/v2/events?cursor=${cursor}`, { key: test })).status, 422, 'a live cursor is foreign to a test key');
  });

  it('a test key lists nothing: sync creates events for live data only', async () => {
    assert.deepEqual(await feed('', test), { items: [] });
  });

  it('hides an event once the crew member withdraws the consent it needs', async () => {
    const before = (await feed()).items;
    assert.ok(before.some((i) => i.event.event_type === 'crew.status.changed'));
    await replaceConsents(store().db, 'crew_1', 'ptn_a', ['profile', 'documents', 'compliance']);
    const after = (await feed()).items;
    assert.deepEqual(
      after,
      before.filter((i) => i.event.event_type !== 'crew.status.changed'),
    );
    await replaceConsents(store().db, 'crew_1', 'ptn_a', ALL as never);
  });

  it('shows pending and retrying events, drops events past the retention, and sync prunes them', async () => {
    const db = store().db;
    const delivered = (await feed()).items.map((i) => i.event.event_id);
    const pending = await pendingEvent('evt_pending', 0);
    const retrying = await pendingEvent('evt_retrying', 2);
    const states = new Map((await feed()).items.map((i) => [i.event.event_id, i.delivery_status]));
    assert.equal(states.get(pending), 'pending');
    assert.equal(states.get(retrying), 'retrying');
    tc.advance(31 * DAY);
    assert.deepEqual((await feed()).items, [], 'older than 30 days: not listed');
    await db.updateTable('webhook_endpoints').set({ status: 'disabled' }).execute();
    const summary = await sync(30);
    assert.equal(summary.pruned, delivered.length, 'delivered events past the retention are deleted');
    const left = await db.selectFrom('outbox_events').select('event_id').orderBy('event_id').execute();
    assert.deepEqual(
      left.map((r) => r.event_id),
      [pending, retrying],
      'pending events are kept: they are still owed',
    );
    const attempts = await db.selectFrom('delivery_attempts').select('event_id').where('event_id', 'in', delivered).execute();
    assert.deepEqual(attempts, [], 'the attempts of deleted events went with them');
  });

  /** A pending event as the diff writes it, created now. */
  async function pendingEvent(eventId: string, attempts: number): Promise<string> {
    const sequence = await takeSequences(store().db, 'ptn_a', 1);
    const body = JSON.stringify({
      schema_version: 1,
      event_id: eventId,
      event_type: 'crew.status.changed',
      occurred_at: '2026-11-22T10:01:00Z',
      partner_id: 'ptn_a',
      sequence,
      subject: 'status:crew_1',
      data: { crew_unique_id: 'crew_1', verification_status: 'verified', background_check_status: 'clear' },
    });
    await insertOutboxRows(store().db, [
      {
        event_id: eventId,
        partner_id: 'ptn_a',
        event_type: 'crew.status.changed',
        crew_unique_id: 'crew_1',
        occurred_at: tc.iso(),
        body,
        status: 'pending',
        attempts,
        next_attempt_at: tc.iso(),
        locked_by: null,
        locked_until: null,
        created_at: tc.iso(),
        delivered_at: null,
        sequence,
        subject: 'status:crew_1',
      },
    ]);
    return eventId;
  }
});
