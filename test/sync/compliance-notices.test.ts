import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { addDays as addDay } from '../../src/domain/compliance/dates.ts';
import { accessVerdict } from '../../src/domain/event-access.ts';
import { FULL_TIER_SCOPES } from '../../src/domain/scopes.ts';
import { COMPLIANCE_UPCOMING, EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { addDays, incrementalRun, START } from '../support/change-world.ts';
import {
  CHOSEN_LEADS,
  chosenLeadsOf,
  crossedOn,
  noticesCreated,
  seedNoticeWorld,
  WINDOW_DAYS,
  type NoticeKey,
} from '../support/notice-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * Differential test of compliance notices: sync runs at random advancing dates (small steps,
 * jumps, repeated runs, `--full` runs) must have created exactly the notices a day-by-day
 * evaluation of every run's date finds crossed, each once. The slow side evaluates every day after
 * the run's date until the overall status differs (medical rows held at their status on the run's
 * date for a partner without crew:medical:read), not the status calendar the sync uses.
 * SVC_DIFF_RUNS=50 for a longer search.
 */
const RUNS = Number(process.env.SVC_DIFF_RUNS ?? 3);

describeEachStore('compliance notices are created once per crossing, as a day-by-day evaluation finds them', ({ store }) => {
  it('at random advancing dates, with jumps, repeated runs and --full runs', async () => {
    const db = store().db;
    await seedNoticeWorld(db);
    await db
      .updateTable('webhook_endpoints')
      .set({ notice_lead_days: JSON.stringify(CHOSEN_LEADS) })
      .where('partner_id', '=', 'ptn_ext')
      .execute();
    const clock = { now: START };
    const now = () => new Date(clock.now);
    await incrementalRun(db, now);
    // Crossed at the baseline: recorded, never sent.
    const atBaseline = await crossedOn(db, START.slice(0, 10), chosenLeadsOf);
    const expected = new Set<NoticeKey>();
    const step = fc.record({
      days: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 25, max: 80 })),
      full: fc.boolean(),
      repeat: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          clock.now = addDays(clock.now, s.days);
          await incrementalRun(db, now, s.full ? { full: true } : {});
          if (s.repeat) await incrementalRun(db, now, { full: !s.full });
          for (const key of await crossedOn(db, clock.now.slice(0, 10), chosenLeadsOf)) if (!atBaseline.has(key)) expected.add(key);
          assert.deepEqual(await noticesCreated(db), [...expected].sort(), `on ${clock.now}`);
        }
      }),
      { numRuns: RUNS },
    );
    assert.ok(expected.size > 0, 'the dates crossed some notices');
  });
});

describeEachStore(
  'compliance notices reach only endpoints that subscribe, and medical dates only partners that may read them',
  ({ store }) => {
    const now = () => new Date(addDays(START, 120));

    it('an endpoint registered with the other event types is sent no notice while one subscribed is', async () => {
      const db = store().db;
      await seedNoticeWorld(db);
      const others = EVENT_TYPES.filter((type) => type !== COMPLIANCE_UPCOMING);
      await db
        .updateTable('webhook_endpoints')
        .set({ subscribed_events: JSON.stringify(others) })
        .where('partner_id', '=', 'ptn_mgmt')
        .execute();
      await incrementalRun(db, () => new Date(START));
      await incrementalRun(db, now);
      const partners = (await noticesCreated(db)).map((notice) => JSON.parse(notice)[0]);
      assert.ok(partners.includes('ptn_basic'), 'the subscribed endpoint was sent notices');
      assert.ok(!partners.includes('ptn_mgmt'));
    });

    it('a change caused by medical rows is announced only with crew:medical:read, and needs it when sent', async () => {
      const db = store().db;
      await seedNoticeWorld(db);
      // crew_4's medical fitness now turns expiring first (on day 60), before its basic safety training (day 70);
      // the baseline crossed the 90- and 60-day leads of day 60 and the 90-day lead of day 70.
      const medicalDay = addDay(START.slice(0, 10), 60);
      await db
        .updateTable('documents')
        .set({ expiry_date: addDay(medicalDay, WINDOW_DAYS) })
        .where('document_id', '=', 'doc_crew_4_0')
        .execute();
      await incrementalRun(db, () => new Date(START));
      await incrementalRun(db, () => new Date(addDays(START, 40)));
      const rows = await db
        .selectFrom('outbox_events')
        .select(['partner_id', 'body', 'payload_scope'])
        .where('event_type', '=', COMPLIANCE_UPCOMING)
        .where('partner_id', 'in', ['ptn_mgmt', 'ptn_basic'])
        .execute();
      const standing = { onFleet: true, consents: new Set(['compliance'] as const) };
      const withoutMedical = new Set(FULL_TIER_SCOPES.filter((scope) => scope !== 'crew:medical:read'));
      const seen = rows.map((row) => {
        const data = JSON.parse(row.body).data;
        const verdict = accessVerdict({ type: COMPLIANCE_UPCOMING, data, payloadScope: row.payload_scope }, withoutMedical, standing);
        return { partner: row.partner_id, on: data.on, lead: data.lead_days, verdict };
      });
      assert.deepEqual(
        seen.filter((notice) => notice.partner === 'ptn_mgmt'),
        [{ partner: 'ptn_mgmt', on: medicalDay, lead: 30, verdict: 'scope' }],
        'the medical date, withheld once the scope is gone',
      );
      assert.deepEqual(
        seen.filter((notice) => notice.partner === 'ptn_basic').sort((a, b) => b.lead - a.lead),
        [60, 30].map((lead) => ({ partner: 'ptn_basic', on: addDay(START.slice(0, 10), 70), lead, verdict: null })),
        'without the scope: the next change of the other rows',
      );
    });
  },
  { storePerTest: true },
);
