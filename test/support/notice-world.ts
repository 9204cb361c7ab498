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
import { documentRow, PARTNERS, seedWorld, START } from './change-world.ts';

/*
 * The world of the compliance notice tests (test/sync/compliance-notices*.test.ts): the change world
 * with documents moved so that lead times are crossed after the baseline, a day-by-day evaluation
 * of the notices crossed on a date (the slow side the sync is compared with), and the notices the
 * outbox holds, in the same form.
 */

export const WINDOW_DAYS = 90;
/** ptn_ext chose its own lead times at registration; the others have the default. */
export const CHOSEN_LEADS = [45, 7];
export const chosenLeadsOf = (partnerId: string): readonly number[] => (partnerId === 'ptn_ext' ? CHOSEN_LEADS : DEFAULT_NOTICE_LEAD_DAYS);

/** A notice as a partner would tell it apart: partner, crew member, vessel, date, lead, status, keys. */
export type NoticeKey = string;

/** The notices crossed on `today` for every partner, at its lead times (`leadsOf`), worked out one day at a time. */
export async function crossedOn(db: Db, today: string, leadsOf: (partnerId: string) => readonly number[]): Promise<Set<NoticeKey>> {
  const longestLead = Math.max(...PARTNERS.flatMap((p) => leadsOf(p)));
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
      for (let ahead = 1; ahead <= longestLead; ahead++) {
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
export async function seedNoticeWorld(db: Db): Promise<void> {
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
export async function noticesCreated(db: Db): Promise<NoticeKey[]> {
  const rows = await db.selectFrom('outbox_events').select('body').where('event_type', '=', COMPLIANCE_UPCOMING).execute();
  return rows
    .map((r) => {
      const { partner_id: partnerId, data: d } = JSON.parse(r.body);
      return JSON.stringify([partnerId, d.crew_unique_id, d.vessel_id, d.on, d.lead_days, d.overall_status, d.requirement_keys]);
    })
    .sort();
}
