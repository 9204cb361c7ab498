import assert from 'node:assert/strict';
import { it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { createApp } from '../../src/http/app.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { findDeadLetters, replayDeadLetters } from '../../src/services/dead-letters.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { applyChanges } from '../../src/services/ingest/apply-changes.ts';
import { fleetDiffStep } from '../../src/sync/fleet-diff-step.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { startTestApi } from '../support/http.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { startReceiver } from '../support/receiver.ts';
import { describeEachStore } from '../support/stores.ts';
import { SECRET, seedEndpoint, testClock, testDeps } from '../support/sync-world.ts';

const ALL = ['status', 'profile', 'documents', 'compliance'];

/** Two crew members on ptn_a's fleet, consenting to everything. */
function fleet() {
  const f = miniFixture();
  f.assignments.push({ ...f.assignments[0], crew_unique_id: 'crew_2' });
  f.consents = ['crew_1', 'crew_2'].map((crew) => ({ crew_unique_id: crew, partner_id: 'ptn_a', categories: ALL }));
  return f;
}

describeEachStore('a crew member erased through ingestion: nothing about them leaves svc afterwards', ({ store }) => {
  it('the next sync creates no event about them; the events feed, dead letters and replay show none', async () => {
    const db = store().db;
    const tc = testClock();
    const config = loadConfig({}, { complianceWindowDays: 90 });
    // crew_1's profile event is refused for good (400), so it is dead-lettered, ready for a replay.
    const receiver = await startReceiver(SECRET, (r) => ({
      status: r.eventType === 'crew.profile.updated' && r.body.includes('"crew_1"') ? 400 : 204,
    }));
    const api = await startTestApi(createApp({ db, config, clock: tc.clock, logger: pino({ level: 'silent' }) }));
    try {
      const sync = () => runSync(db, testDeps(tc), { diff: fleetDiffStep(config) });
      const ingest = (...changes: object[]) =>
        db.transaction().execute((trx) =>
          applyChanges(
            trx,
            changes.map((c, i) => ({ origin: `test:${i + 1}`, text: JSON.stringify(c) })),
            { clock: tc.clock, holdMs: 0 },
          ),
        );
      const bio = (crew: string, version: number) => ({ entity: 'crew', op: 'patch', id: crew, version, data: { bio: `bio ${version}` } });
      let key = '';
      const feed = async (query = '') => {
        const res = await api.get(`/api/v2/events${query}`, { key });
        assert.equal(res.status, 200, JSON.stringify(res.json));
        return JSON.stringify(res.json.items);
      };

      await loadFixtures(db, ['data/requirements.json', writeFixture(fleet())], tc.clock);
      await seedEndpoint(db, 'ptn_a', receiver.url, SECRET, [...EVENT_TYPES]);
      key = (await issuePartnerKey(db, 'ptn_a', 'live', tc.clock)).key;
      await sync();
      tc.advance(60_000);
      const version = tc.clock().getTime() * 1000;
      assert.deepEqual(
        (await ingest(bio('crew_1', version), bio('crew_2', version))).map((r) => r.outcome),
        ['applied', 'applied'],
      );
      await sync();
      assert.match(await feed(), /"crew_1"/, 'before the erasure the feed shows crew_1');
      assert.deepEqual(
        (await findDeadLetters(db, { partnerId: 'ptn_a' })).map((d) => d.eventType),
        ['crew.profile.updated'],
        "crew_1's, refused",
      );

      tc.advance(60_000);
      const sent = receiver.received.length;
      assert.deepEqual(
        (await ingest({ entity: 'crew', op: 'delete', id: 'crew_1', version: version + 1 }, bio('crew_2', version + 1))).map(
          (r) => r.outcome,
        ),
        ['applied', 'applied'],
      );
      await sync();
      const after = receiver.received.slice(sent);
      assert.ok(
        after.some((r) => r.body.includes('"crew_2"')),
        "the sync after the erasure sends crew_2's change",
      );
      assert.ok(!after.some((r) => r.body.includes('crew_1')), 'and nothing about crew_1');
      const outbox = await db.selectFrom('outbox_events').select(['crew_unique_id', 'body']).execute();
      assert.ok(
        outbox.length > 0 && outbox.every((e) => e.crew_unique_id !== 'crew_1' && !e.body.includes('crew_1')),
        'no outbox event names crew_1',
      );

      assert.doesNotMatch(await feed(), /crew_1/);
      assert.match(await feed(), /"crew_2"/);
      assert.equal(await feed('?crew_unique_id=crew_1'), '[]');
      assert.deepEqual(await findDeadLetters(db, { partnerId: 'ptn_a' }), []);
      assert.deepEqual(await replayDeadLetters(db, { partnerId: 'ptn_a' }, tc.clock), { replayed: [], skipped: [] });
      const beforeLast = receiver.received.length;
      await sync();
      assert.ok(
        !receiver.received.slice(beforeLast).some((r) => r.body.includes('crew_1')),
        'a later sync sends nothing about crew_1 either',
      );
    } finally {
      await api.close();
      await receiver.close();
    }
  });
});
