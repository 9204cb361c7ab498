import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_NOTICE_LEAD_DAYS } from '../../src/domain/compliance/notices.ts';
import { addDays as addDay } from '../../src/domain/compliance/dates.ts';
import { evaluateCompliance } from '../../src/domain/compliance/index.ts';
import { fleetOf } from '../../src/domain/partner.ts';
import { accessVerdict } from '../../src/domain/event-access.ts';
import { effectiveScopes, FULL_TIER_SCOPES } from '../../src/domain/scopes.ts';
import { COMPLIANCE_UPCOMING, EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import type { Db } from '../../src/store/database.ts';
import { complianceRosterPage } from '../../src/store/repositories/compliance-roster-repo.ts';
import { listEvaluationDocuments } from '../../src/store/repositories/documents-repo.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { addDays, documentRow, incrementalRun, PARTNERS, seedWorld, START } from '../support/change-world.ts';
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
const WINDOW_DAYS = 90;
/** ptn_ext chose its own lead times at registration; the others have the default. */
const CHOSEN_LEADS = [45, 7];
const leadsOf = (partnerId: string): readonly number[] => (partnerId === 'ptn_ext' ? CHOSEN_LEADS : DEFAULT_NOTICE_LEAD_DAYS);
const LONGEST_LEAD = Math.max(...DEFAULT_NOTICE_LEAD_DAYS, ...CHOSEN_LEADS);

/** A notice as a partner would tell it apart: partner, crew member, vessel, date, lead, status, keys. */
type NoticeKey = string;

/** The notices crossed on `today` for every partner, worked out one day at a time. */
async function crossedOn(db: Db, today: string): Promise<Set<NoticeKey>> {
  const catalogue = (await new CatalogueCache(() => new Date(`${today}T12:00:00Z`), 0).get(db)).definitions;
  const out = new Set<NoticeKey>();
  for (const partnerId of PARTNERS) {
    const partner = (await findPartner(db, partnerId))!;
    const scopes = new Set<string>(effectiveScopes(partner));
    if (!scopes.has('crew:compliance:read')) continue;
    const medicalOn = scopes.has('crew:medical:read') ? {} : { medicalOn: today };
    const roster = await complianceRosterPage(db, fleetOf(partner, 'live'), partnerId, { after: null, limit: 1000 });
    const documents = await listEvaluationDocuments(
      db,
      roster.map((r) => r.assignment.crewUniqueId),
    );
    for (const { assignment, vessel } of roster) {
      const on = (day: string) =>
        evaluateCompliance({
          role: assignment.role,
          positionName: assignment.positionName,
          vessel,
          catalogue,
          documents: documents.filter((d) => d.crewUniqueId === assignment.crewUniqueId),
          today: day,
          windowDays: WINDOW_DAYS,
          ...medicalOn,
        });
      const first = on(today);
      if (first.overallStatus === 'no_role') continue;
      let before = first;
      for (let ahead = 1; ahead <= LONGEST_LEAD; ahead++) {
        const day = addDay(today, ahead);
        const evaluation = on(day);
        if (evaluation.overallStatus === first.overallStatus) {
          before = evaluation;
          continue;
        }
        const was = new Map(before.requirements.filter((r) => r.required).map((r) => [r.key, r.status]));
        const keys = evaluation.requirements
          .filter((r) => r.required && was.get(r.key) !== r.status && !(medicalOn.medicalOn && r.group === 'medical'))
          .map((r) => r.key)
          .sort();
        for (const lead of leadsOf(partnerId)) {
          if (ahead <= lead) {
            out.add(JSON.stringify([partnerId, assignment.crewUniqueId, vessel.vesselId, day, lead, evaluation.overallStatus, keys]));
          }
        }
        break;
      }
    }
  }
  return out;
}

/**
 * The change world (test/support/change-world.ts) with every document's expiry 200 days later: at
 * the start every status is met, and the first changes come 70 to 220 days on, so runs cross lead
 * times after the baseline rather than all at once.
 */
async function seedNoticeWorld(db: Db): Promise<void> {
  await seedWorld(db);
  // crew_4, a cook, lacks only the ship's cook certificate (no expiry): with it, every required row is
  // dated or fixed and met, so the overall status moves with the calendar. Shown to every partner
  // with compliance: on ves_a (ptn_mgmt, ptn_basic) and on ves_x (ptn_ext), with their consents.
  const cook = documentRow('doc_crew_4_cook', 'crew_4', 3, null, START);
  const classification = { ...JSON.parse(cook.classification), category_code: 'ships_cook', stcw_codes: [] };
  await db
    .insertInto('documents')
    .values({ ...cook, classification: JSON.stringify(classification) })
    .execute();
  await db
    .insertInto('assignments')
    .values({
      assignment_id: 'asg_notice_x',
      crew_unique_id: 'crew_4',
      vessel_id: 'ves_x',
      role: 'cook',
      position_name: null,
      status: 'active',
      as_of: START,
    })
    .execute();
  await db
    .insertInto('consents')
    .values(
      ['ptn_mgmt', 'ptn_ext'].map((partnerId) => ({ crew_unique_id: 'crew_4', partner_id: partnerId, category: 'compliance' as const })),
    )
    .execute();
  for (const doc of await db
    .selectFrom('documents')
    .select(['document_id', 'expiry_date'])
    .where('expiry_date', 'is not', null)
    .execute()) {
    await db
      .updateTable('documents')
      .set({ expiry_date: addDay(doc.expiry_date!.slice(0, 10), 200) })
      .where('document_id', '=', doc.document_id)
      .execute();
  }
}

/** Every notice in the outbox, as crossedOn writes them; duplicates kept. */
async function noticesCreated(db: Db): Promise<NoticeKey[]> {
  const rows = await db.selectFrom('outbox_events').select('body').where('event_type', '=', COMPLIANCE_UPCOMING).execute();
  return rows
    .map((r) => {
      const { partner_id: partnerId, data: d } = JSON.parse(r.body);
      return JSON.stringify([partnerId, d.crew_unique_id, d.vessel_id, d.on, d.lead_days, d.overall_status, d.requirement_keys]);
    })
    .sort();
}

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
    const atBaseline = await crossedOn(db, START.slice(0, 10));
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
          for (const key of await crossedOn(db, clock.now.slice(0, 10))) if (!atBaseline.has(key)) expected.add(key);
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
