import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { runDiff } from '../../src/sync/diff/run-diff.ts';
import type { Db } from '../../src/store/database.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { checkWebhookBody } from '../support/openapi-check.ts';
import { describeEachStore } from '../support/stores.ts';

const ALL_EVENTS = [
  'crew.document.processed',
  'crew.document.updated',
  'crew.compliance.changed',
  'crew.status.changed',
  'crew.profile.updated',
];
let minute = 0;
/** Each fixture load happens a minute after the previous one, as real edits would. */
const clock = () => new Date(Date.UTC(2026, 10, 22, 10, minute));

/** The demo-like base: crew_1 (master, all consents) and crew_2 on ves_a; ptn_b on tier basic. */
function base() {
  const f = miniFixture();
  f.partners.push({ partner_id: 'ptn_b', name: 'Basic', kind: 'customer', employer_id: 'emp_a', tier: 'basic' });
  f.consents = [
    { crew_unique_id: 'crew_1', partner_id: 'ptn_a', categories: ['status', 'profile', 'documents', 'compliance'] },
    { crew_unique_id: 'crew_1', partner_id: 'ptn_b', categories: ['status', 'profile', 'documents', 'compliance'] },
  ];
  f.assignments.push({ crew_unique_id: 'crew_2', vessel_id: 'ves_a', role: 'cook', status: 'active', as_of: '2026-10-01T00:00:00Z' });
  f.documents.push({
    document_id: 'doc_bst',
    crew_unique_id: 'crew_1',
    type: 'certificate',
    category: 'training',
    title: 'Basic safety training',
    verification_status: 'verified',
    expiry_date: '2029-01-01',
    classification: { document_class: 'training', category_code: 'bst', stcw_codes: ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'] },
  });
  return f;
}

async function outbox(db: Db, partnerId = 'ptn_a') {
  const rows = await db
    .selectFrom('outbox_events')
    .select(['event_id', 'event_type', 'crew_unique_id', 'body'])
    .where('partner_id', '=', partnerId)
    .orderBy('event_type')
    .orderBy('event_id')
    .execute();
  const events = rows.map((r) => ({ id: r.event_id, type: r.event_type, crew: r.crew_unique_id, body: JSON.parse(r.body) }));
  // Every event the diff writes is one the OpenAPI document's `webhooks` describe.
  for (const e of events) checkWebhookBody(e.type, e.body);
  return events;
}

/** crew_1's security awareness certificate, without expiry: the document the story adds first. */
function securityAwareness(): Record<string, any> {
  return {
    document_id: 'doc_sec',
    crew_unique_id: 'crew_1',
    type: 'certificate',
    category: 'training',
    title: 'Security awareness',
    verification_status: 'verified',
    no_expiry: true,
    classification: { document_class: 'training', category_code: 'security_awareness' },
  };
}

/**
 * The fixture sets this file's tests load, in the order of the story they tell. Each test takes a
 * store of its own and first loads (and syncs) the states its change starts from, through
 * `startFrom`: it never reads what another test wrote.
 */
const story = {
  newDocument: () => {
    const f = base();
    f.documents.push(securityAwareness());
    return f;
  },
  correctedDate: () => {
    const f = story.newDocument();
    f.documents[2].expiry_date = '2029-06-01';
    return f;
  },
  replacement: () => {
    const f = base();
    f.documents[2].expiry_date = '2029-06-01';
    f.documents[2].is_current = false;
    f.documents[2].superseded_by = 'doc_bst2';
    f.documents.push({ ...f.documents[2], document_id: 'doc_bst2', is_current: true, superseded_by: null, expiry_date: '2031-01-01' });
    f.documents.push(securityAwareness());
    return f;
  },
  withdrawn: () => {
    const f = base();
    f.documents[2].is_current = false;
    f.documents[2].superseded_by = 'doc_bst2';
    f.documents.push({
      ...f.documents[2],
      document_id: 'doc_bst2',
      is_current: true,
      superseded_by: null,
      expiry_date: '2031-01-01',
      is_live: false,
    });
    f.documents.push({ ...securityAwareness(), processing_state: 'rejected' });
    return f;
  },
  statusAndProfile: () => {
    const f = base();
    f.crew[0].background_check_status = 'clear';
    f.crew[0].bio = 'Master mariner';
    return f;
  },
  joining: () => {
    const f = story.statusAndProfile();
    f.crew.push({ crew_unique_id: 'crew_3', name: 'Chen Wang', background_check_status: 'pending' });
    f.assignments.push({ crew_unique_id: 'crew_3', vessel_id: 'ves_a', role: 'bosun', status: 'invited', as_of: '2026-11-20T00:00:00Z' });
    f.consents.push({ crew_unique_id: 'crew_3', partner_id: 'ptn_a', categories: ['status', 'profile', 'documents', 'compliance'] });
    f.documents.push(
      {
        document_id: 'doc_c3_med',
        crew_unique_id: 'crew_3',
        type: 'certificate',
        category: 'medical',
        title: 'Medical fitness',
        verification_status: 'verified',
        expiry_date: '2027-09-01',
        classification: { document_class: 'medical', category_code: 'medical_fitness' },
      },
      {
        document_id: 'doc_c3_bst',
        crew_unique_id: 'crew_3',
        type: 'certificate',
        category: 'training',
        title: 'BST',
        verification_status: 'verified',
        expiry_date: '2028-09-01',
        classification: { document_class: 'training', category_code: 'bst', stcw_codes: ['A-VI/1-1'] },
      },
    );
    return f;
  },
  consentLater: () => {
    const f = base();
    f.consents.push({ crew_unique_id: 'crew_2', partner_id: 'ptn_a', categories: ['status'] });
    return f;
  },
  reviewed: () => {
    const f = story.consentLater();
    f.crew[1].background_check_status = 'review';
    return f;
  },
  leaving: () => {
    const f = story.reviewed();
    f.assignments[1].status = 'signed_off';
    return f;
  },
};

describeEachStore(
  'the sync diff turns changes into outbox events',
  ({ store }) => {
    const deps = () => ({ clock, catalogue: new CatalogueCache(clock, 0), windowDays: 90 });
    const sync = async () => {
      const before = new Set((await outbox(store().db)).map((e) => e.id));
      await runDiff(store().db, deps());
      return (await outbox(store().db)).filter((e) => !before.has(e.id)).map(({ id: _, ...e }) => e);
    };
    const load = async (f: Record<string, any>) => {
      minute++;
      return loadFixtures(store().db, ['data/requirements.json', writeFixture(f)], clock);
    };
    /** An active endpoint for ptn_a and one for ptn_b, each subscribed to every event type. */
    const registerEndpoints = async () => {
      for (const partnerId of ['ptn_a', 'ptn_b']) {
        await insertEndpoint(store().db, {
          endpointId: `ep_${partnerId}`,
          partnerId,
          url: 'https://example.test/hook',
          subscribedEvents: ALL_EVENTS,
          secret: 'whsec_x',
          status: 'active',
          createdAt: clock().toISOString(),
          updatedAt: clock().toISOString(),
        });
      }
    };
    /** The baseline (base() loaded, endpoints registered, one run), then each of `states` loaded and synced in turn. */
    const startFrom = async (...states: (() => Record<string, any>)[]) => {
      await load(base());
      await registerEndpoints();
      await sync();
      for (const state of states) {
        await load(state());
        await sync();
      }
    };

    it('the first run records a baseline and sends nothing (no backlog)', async () => {
      await load(base());
      await registerEndpoints();
      assert.deepEqual(await sync(), []);
      assert.ok((await store().db.selectFrom('sync_snapshots').selectAll().execute()).length >= 1);
    });

    it('an unchanged rerun sends nothing', async () => {
      await startFrom();
      assert.deepEqual(await sync(), []);
    });

    it('a new processed document is one crew.document.processed, with the envelope of the spec', async () => {
      await startFrom();
      await load(story.newDocument());
      const events = await sync();
      const processed = events.filter((e) => e.type === 'crew.document.processed');
      assert.equal(processed.length, 1);
      const body = processed[0]!.body;
      assert.deepEqual(Object.keys(body), [
        'schema_version',
        'event_id',
        'event_type',
        'occurred_at',
        'partner_id',
        'sequence',
        'subject',
        'data',
      ]);
      assert.equal(body.schema_version, 1);
      assert.equal(body.subject, 'document:doc_sec');
      assert.ok(Number.isSafeInteger(body.sequence) && body.sequence >= 1);
      assert.equal(body.partner_id, 'ptn_a');
      assert.equal(body.data.crew_unique_id, 'crew_1');
      assert.equal(body.data.document_id, 'doc_sec');
      assert.equal(body.data.no_expiry, true);
      assert.equal(body.data.classification.category_code, 'security_awareness');
      assert.ok(events.every((e) => e.type !== 'crew.document.updated'));
    });

    it('a corrected date is crew.document.updated; an unchanged recalculation sends nothing', async () => {
      await startFrom(story.newDocument);
      await load(story.correctedDate());
      const events = await sync();
      assert.deepEqual(
        events.filter((e) => e.type.startsWith('crew.document')).map((e) => [e.type, e.body.data.document_id]),
        [['crew.document.updated', 'doc_bst']],
      );
      assert.deepEqual(await sync(), []);
    });

    it('replacement by a newer edition: the old one is updated (is_current false, superseded_by), the new one processed', async () => {
      await startFrom(story.correctedDate);
      await load(story.replacement());
      const docs = (await sync()).filter((e) => e.type.startsWith('crew.document'));
      const old = docs.find((e) => e.body.data.document_id === 'doc_bst');
      assert.equal(old?.type, 'crew.document.updated');
      assert.equal(old?.body.data.is_current, false);
      assert.equal(old?.body.data.superseded_by, 'doc_bst2');
      assert.equal(old?.body.data.status, 'superseded');
      assert.equal(docs.find((e) => e.body.data.document_id === 'doc_bst2')?.type, 'crew.document.processed');
      assert.equal(docs.length, 2);
      assert.deepEqual(await sync(), []);
    });

    it('a withdrawn or rejected document leaves without any event', async () => {
      await startFrom(story.replacement);
      await load(story.withdrawn());
      const docs = (await sync()).filter((e) => e.type.startsWith('crew.document'));
      assert.deepEqual(docs, []);
    });

    it('a status change is crew.status.changed; a profile change is crew.profile.updated', async () => {
      await startFrom();
      await load(story.statusAndProfile());
      const events = await sync();
      const status = events.find((e) => e.type === 'crew.status.changed');
      assert.deepEqual(status?.body.data, {
        crew_unique_id: 'crew_1',
        verification_status: 'unverified',
        background_check_status: 'clear',
      });
      const profile = events.find((e) => e.type === 'crew.profile.updated');
      assert.equal(profile?.body.data.crew_unique_id, 'crew_1');
      assert.equal(typeof profile?.body.data.updated_at, 'string');
    });

    it('a basic-tier partner gets no document or status events (no scope), but compliance and profile', async () => {
      // A new document, then a status and a profile change: events of each kind for ptn_a.
      await startFrom(story.newDocument, story.statusAndProfile);
      const events = await outbox(store().db, 'ptn_b');
      const types = new Set(events.map((e) => e.type));
      assert.ok(!types.has('crew.document.processed') && !types.has('crew.document.updated') && !types.has('crew.status.changed'));
      assert.ok(types.has('crew.profile.updated'));
    });

    it('crew joining the fleet arrive in full: every document, compliance, status and profile', async () => {
      await startFrom(story.statusAndProfile);
      await load(story.joining());
      const events = (await sync()).filter((e) => e.crew === 'crew_3');
      assert.deepEqual(events.map((e) => e.type).sort(), [
        'crew.compliance.changed',
        'crew.document.processed',
        'crew.document.processed',
        'crew.profile.updated',
        'crew.status.changed',
      ]);
      const compliance = events.find((e) => e.type === 'crew.compliance.changed')!.body.data;
      assert.deepEqual(Object.keys(compliance), [
        'crew_unique_id',
        'vessel_id',
        'overall_status',
        'requirements_met',
        'requirements_total',
        'requirements_expiring',
        'next_expiry_date',
      ]);
      assert.equal(compliance.overall_status, 'non_compliant');
    });

    it('crew without consent produce no events; consenting later is a join for that category', async () => {
      // crew_2, on the vessel without consent, through the changes of the other crew.
      await startFrom(story.newDocument, story.statusAndProfile, story.joining);
      assert.deepEqual(
        (await outbox(store().db)).filter((e) => e.crew === 'crew_2'),
        [],
      );
      await load(story.consentLater());
      const events = (await sync()).filter((e) => e.crew === 'crew_2');
      assert.deepEqual(
        events.map((e) => e.type),
        ['crew.status.changed'],
      );
    });

    it('only subscribed event types are written, while the snapshot still moves on', async () => {
      await startFrom(story.consentLater);
      await store()
        .db.updateTable('webhook_endpoints')
        .set({ subscribed_events: JSON.stringify(['crew.profile.updated']) })
        .where('partner_id', '=', 'ptn_a')
        .execute();
      await load(story.reviewed());
      assert.deepEqual(await sync(), []);
      await store()
        .db.updateTable('webhook_endpoints')
        .set({ subscribed_events: JSON.stringify(ALL_EVENTS) })
        .where('partner_id', '=', 'ptn_a')
        .execute();
      assert.deepEqual(await sync(), []);
    });

    it('crew leaving the fleet send nothing, and coming back is a join again', async () => {
      await startFrom(story.reviewed);
      const f = story.leaving();
      await load(f);
      assert.deepEqual(
        (await sync()).filter((e) => e.crew === 'crew_2'),
        [],
      );
      f.assignments[1].status = 'active';
      await load(f);
      assert.deepEqual(
        (await sync()).map((e) => [e.type, e.crew]),
        [['crew.status.changed', 'crew_2']],
      );
    });

    it("event ids are evt_ and a version-7 UUID: distinct, and a later run's sort after an earlier one's", async () => {
      // The whole story, one run after each change.
      await startFrom(...Object.values(story), story.reviewed);
      const rows = await store().db.selectFrom('outbox_events').select(['event_id', 'created_at']).execute();
      assert.ok(rows.length > 10);
      for (const r of rows) assert.match(r.event_id, /^evt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(new Set(rows.map((r) => r.event_id)).size, rows.length);
      const byTime = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.event_id.localeCompare(b.event_id));
      const byId = [...rows].sort((a, b) => a.event_id.localeCompare(b.event_id));
      assert.deepEqual(
        byId.map((r) => r.created_at),
        byTime.map((r) => r.created_at),
      );
    });
  },
  { storePerTest: true },
);
