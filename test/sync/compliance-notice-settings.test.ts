import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DEFAULT_NOTICE_LEAD_DAYS } from '../../src/domain/compliance/notices.ts';
import { effectiveScopes } from '../../src/domain/scopes.ts';
import { COMPLIANCE_UPCOMING, EVENT_TYPES, type EventType } from '../../src/domain/vocabulary.ts';
import { listEventsPage } from '../../src/services/events/feed.ts';
import type { Db } from '../../src/store/database.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { addDays, incrementalRun, START } from '../support/change-world.ts';
import { crossedOn, noticesCreated, seedNoticeWorld, type NoticeKey } from '../support/notice-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * Compliance notices follow the endpoint's settings at the next `svc sync`: new lead times call for
 * their notices at once, and notices are worked out only while the endpoint subscribes to them
 * (docs/webhooks.md, "Compliance notices ahead of time"; docs/decisions.md, "Sync").
 */

const TODAY = addDays(START, 10);
const now = () => new Date(TODAY);
const defaults = (): readonly number[] => DEFAULT_NOTICE_LEAD_DAYS;
const ofPartner = (partnerId: string, notices: Iterable<NoticeKey>) => [...notices].filter((n) => JSON.parse(n)[0] === partnerId).sort();

/** What `all` holds beyond `earlier`, duplicates counted. */
function beyond(all: readonly NoticeKey[], earlier: readonly NoticeKey[]): NoticeKey[] {
  const left = [...earlier];
  return all.filter((n) => {
    const i = left.indexOf(n);
    if (i >= 0) left.splice(i, 1);
    return i < 0;
  });
}

async function setEndpoint(db: Db, partnerId: string, set: { notice_lead_days?: string; subscribed_events?: string }) {
  await db.updateTable('webhook_endpoints').set(set).where('partner_id', '=', partnerId).execute();
}

/** The compliance notices the partner's events feed lists now (a live key holding its scopes). */
async function feedNotices(db: Db, partnerId: string): Promise<number> {
  const partner = (await findPartner(db, partnerId))!;
  const ctx = { partner, mode: 'live' as const, keyId: 'key_test', scopes: new Set(effectiveScopes(partner)) };
  const query = { filters: { type: COMPLIANCE_UPCOMING as EventType }, afterSequence: 0, limit: 200, since: START };
  return (await listEventsPage(db, ctx, Buffer.alloc(32, 1), query)).items.length;
}

describeEachStore(
  'compliance notices follow the endpoint: its lead times and its subscription, at the next svc sync',
  ({ store }) => {
    it('new lead times create the notices they call for at the next incremental run, and none twice', async () => {
      const db = store().db;
      await seedNoticeWorld(db);
      await incrementalRun(db, () => new Date(START));
      await incrementalRun(db, now);
      const before = await noticesCreated(db);
      assert.ok(ofPartner('ptn_ext', before).length > 0, 'the default lead times crossed some notices');

      await setEndpoint(db, 'ptn_ext', { notice_lead_days: JSON.stringify([120, 90, 60, 30]) });
      const run = await incrementalRun(db, now);
      assert.ok(run.full, "the change of lead times re-diffed the partner's fleet");
      const added = beyond(await noticesCreated(db), before);
      const wanted = ofPartner('ptn_ext', await crossedOn(db, TODAY.slice(0, 10), (p) => (p === 'ptn_ext' ? [120] : [])));
      assert.ok(wanted.length > 0, 'the new 120-day lead is reached for some changes');
      assert.deepEqual(added, wanted, 'each 120-day notice reached today, once; the 90-, 60- and 30-day ones are not sent again');
      assert.deepEqual((await incrementalRun(db, now)).events, [], 'the next run creates nothing more');
    });

    it('an endpoint that does not subscribe has none worked out; subscribing brings those reached, at once and once', async () => {
      const db = store().db;
      await seedNoticeWorld(db);
      const others = EVENT_TYPES.filter((type) => type !== COMPLIANCE_UPCOMING);
      await setEndpoint(db, 'ptn_mgmt', { subscribed_events: JSON.stringify(others) });
      await incrementalRun(db, () => new Date(START));
      await incrementalRun(db, now);
      assert.deepEqual(ofPartner('ptn_mgmt', await noticesCreated(db)), []);
      assert.equal(await feedNotices(db, 'ptn_mgmt'), 0, 'its events feed lists no notice: none was created for it');
      const snapshots = await db.selectFrom('sync_snapshots').select('state').where('partner_id', '=', 'ptn_mgmt').execute();
      assert.ok(snapshots.length > 0);
      assert.ok(
        snapshots.every((s) => Object.keys(JSON.parse(s.state).notices ?? {}).length === 0),
        'no notice is worked out for it',
      );

      await setEndpoint(db, 'ptn_mgmt', { subscribed_events: JSON.stringify(EVENT_TYPES) });
      await incrementalRun(db, now);
      const wanted = ofPartner('ptn_mgmt', await crossedOn(db, TODAY.slice(0, 10), defaults));
      assert.ok(wanted.length > 0);
      assert.deepEqual(ofPartner('ptn_mgmt', await noticesCreated(db)), wanted, 'every lead time already reached for a change ahead');
      assert.equal(await feedNotices(db, 'ptn_mgmt'), wanted.length);

      await setEndpoint(db, 'ptn_mgmt', { subscribed_events: JSON.stringify(others) });
      await incrementalRun(db, now);
      await setEndpoint(db, 'ptn_mgmt', { subscribed_events: JSON.stringify(EVENT_TYPES) });
      await incrementalRun(db, now);
      assert.deepEqual(ofPartner('ptn_mgmt', await noticesCreated(db)), wanted, 'unsubscribing and subscribing again sends none twice');
    });
  },
  { storePerTest: true },
);
