import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_NOTICE_LEAD_DAYS } from '../../src/domain/compliance/notices.ts';
import { addDays as addDay } from '../../src/domain/compliance/dates.ts';
import { evaluateCompliance } from '../../src/domain/compliance/index.ts';
import { fleetOf } from '../../src/domain/partner.ts';
import { effectiveScopes } from '../../src/domain/scopes.ts';
import { COMPLIANCE_UPCOMING } from '../../src/domain/vocabulary.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import type { Db } from '../../src/store/database.ts';
import { complianceRosterPage } from '../../src/store/repositories/compliance-roster-repo.ts';
import { listEvaluationDocuments } from '../../src/store/repositories/documents-repo.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { addDays, incrementalRun, PARTNERS, seedWorld, START } from '../support/change-world.ts';
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
const LONGEST_LEAD = Math.max(...DEFAULT_NOTICE_LEAD_DAYS);

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
        for (const lead of DEFAULT_NOTICE_LEAD_DAYS) {
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
    await seedWorld(db);
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
