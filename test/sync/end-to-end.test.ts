import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { fleetDiffStep } from '../../src/sync/fleet-diff-step.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { checkWebhookDelivery } from '../support/openapi-check.ts';
import { describeEachStore } from '../support/stores.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { SECRET, seedEndpoint, testClock, testDeps } from '../support/sync-world.ts';

const ALL = ['status', 'profile', 'documents', 'compliance'];

function fleet(extra: (f: Record<string, any>) => void = () => {}) {
  const f = miniFixture();
  f.consents = [{ crew_unique_id: 'crew_1', partner_id: 'ptn_a', categories: ALL }];
  extra(f);
  return f;
}

/** The fleet after a crew member joined, a document was replaced and a background check cleared. */
function changedFleet() {
  return fleet((f) => {
    f.crew.push({ crew_unique_id: 'crew_3', name: 'Chen Wang' });
    f.assignments.push({
      crew_unique_id: 'crew_3',
      vessel_id: 'ves_a',
      role: 'cook',
      status: 'invited',
      as_of: '2026-11-20T00:00:00Z',
    });
    f.consents.push({ crew_unique_id: 'crew_3', partner_id: 'ptn_a', categories: ALL });
    f.documents.push({
      document_id: 'doc_c3',
      crew_unique_id: 'crew_3',
      type: 'certificate',
      category: 'training',
      title: "Ship's cook",
      verification_status: 'verified',
      no_expiry: true,
      classification: { document_class: 'training', category_code: 'ships_cook' },
    });
    f.documents[0].is_current = false;
    f.documents[0].superseded_by = 'doc_newer';
    f.documents.push({ ...f.documents[0], document_id: 'doc_newer', is_current: true, superseded_by: null, expiry_date: '2028-06-01' });
    f.crew[0].background_check_status = 'clear';
  });
}

describeEachStore(
  'svc sync from fleet change to signed delivery',
  ({ store }) => {
    const tc = testClock();
    const config = loadConfig({}, { complianceWindowDays: 90 });
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver(SECRET);
    });
    after(() => receiver.close());

    const load = (f: Record<string, any>) => {
      tc.advance(60_000);
      return loadFixtures(store().db, ['data/requirements.json', writeFixture(f)], tc.clock);
    };
    const sync = async () => {
      const before = receiver.received.length;
      const summary = await runSync(store().db, testDeps(tc), { diff: fleetDiffStep(config) });
      return { summary, received: receiver.received.slice(before) };
    };

    /** The fleet loaded, ptn_a's endpoint registered, and the first run: what every test starts from. */
    const registered = async () => {
      await load(fleet());
      await seedEndpoint(store().db, 'ptn_a', receiver.url, SECRET, [...EVENT_TYPES]);
      return sync();
    };

    it('registering an endpoint sends no backlog', async () => {
      const { received } = await registered();
      assert.deepEqual(received, []);
    });

    it('a crew member joining, a replaced document and a status change arrive signed, once', async () => {
      await registered();
      await load(changedFleet());
      const { summary, received } = await sync();
      assert.ok(
        received.every((r) => r.signatureValid),
        'every delivery verifies against the endpoint secret',
      );
      for (const r of received) checkWebhookDelivery(r);
      const seen = received
        .map((r) => {
          const body = JSON.parse(r.body);
          assert.equal(body.event_id, r.eventId);
          assert.equal(body.event_type, r.eventType);
          return [r.eventType, body.data.crew_unique_id, body.data.document_id ?? ''];
        })
        .sort();
      assert.deepEqual(
        seen,
        [
          // The newer medical certificate moves crew_1's next_expiry_date.
          ['crew.compliance.changed', 'crew_1', ''],
          ['crew.compliance.changed', 'crew_3', ''],
          ['crew.document.processed', 'crew_1', 'doc_newer'],
          ['crew.document.processed', 'crew_3', 'doc_c3'],
          ['crew.document.updated', 'crew_1', 'doc_new'],
          ['crew.profile.updated', 'crew_3', ''],
          ['crew.status.changed', 'crew_1', ''],
          ['crew.status.changed', 'crew_3', ''],
        ].sort(),
      );
      assert.equal(summary.created.get('ptn_a'), 8);
    });

    it('an unchanged rerun delivers nothing', async () => {
      await registered();
      await load(changedFleet());
      assert.equal((await sync()).summary.created.get('ptn_a'), 8);
      const { received, summary } = await sync();
      assert.deepEqual(received, []);
      assert.equal(summary.created.get('ptn_a'), 0);
    });
  },
  { storePerTest: true },
);
