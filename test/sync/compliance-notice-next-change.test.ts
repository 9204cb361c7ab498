import assert from 'node:assert/strict';
import { it } from 'node:test';
import { addDays as addDay } from '../../src/domain/compliance/dates.ts';
import { effectiveScopes } from '../../src/domain/scopes.ts';
import { COMPLIANCE_UPCOMING } from '../../src/domain/vocabulary.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { listFleetCompliancePage } from '../../src/services/read-api/fleet-compliance.ts';
import type { Db } from '../../src/store/database.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { addDays, incrementalRun, START } from '../support/change-world.ts';
import { seedNoticeWorld, WINDOW_DAYS } from '../support/notice-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * A compliance notice announces the fleet compliance list's `next_change` (docs/webhooks.md,
 * "Compliance notices ahead of time"): read the same day for the same partner, the list's item of
 * the notice's crew member and vessel has a next change on the notice's date, to its status, for its
 * requirement keys, with medical rows shown or held as the partner's scopes say.
 */

/** `crew|vessel` → the fleet list's next change, as the partner reads the list on `today`. */
async function nextChanges(db: Db, partnerId: string, today: string): Promise<Map<string, unknown>> {
  const partner = (await findPartner(db, partnerId))!;
  const ctx = { partner, mode: 'live' as const, keyId: 'key_test', scopes: new Set(effectiveScopes(partner)) };
  const clock = () => new Date(`${today}T12:00:00Z`);
  const deps = { catalogue: new CatalogueCache(clock, 0), windowDays: WINDOW_DAYS, cursorKey: Buffer.alloc(32, 2), today };
  const page = await listFleetCompliancePage(db, ctx, deps, { filters: { on: today }, limit: 500, after: null });
  return new Map(page.items.map((item) => [`${item.crew_unique_id}|${item.vessel_id}`, item.next_change]));
}

describeEachStore("a compliance notice agrees with the fleet compliance list's next_change", ({ store }) => {
  it('the same day, for partners with and without crew:medical:read', async () => {
    const db = store().db;
    await seedNoticeWorld(db);
    // crew_4's medical fitness turns expiring first (day 60), before its basic safety training (day 70):
    // the partners with crew:medical:read are told of day 60, the others of day 70.
    await db
      .updateTable('documents')
      .set({ expiry_date: addDay(addDay(START.slice(0, 10), 60), WINDOW_DAYS) })
      .where('document_id', '=', 'doc_crew_4_0')
      .execute();
    await incrementalRun(db, () => new Date(START));
    const today = addDays(START, 40).slice(0, 10);
    await incrementalRun(db, () => new Date(`${today}T10:00:00Z`));
    const rows = await db.selectFrom('outbox_events').select('body').where('event_type', '=', COMPLIANCE_UPCOMING).execute();
    const notices = rows.map((r) => JSON.parse(r.body) as { partner_id: string; data: Record<string, unknown> });
    assert.deepEqual(
      [...new Set(notices.map((n) => n.partner_id))].sort(),
      ['ptn_basic', 'ptn_ext', 'ptn_mgmt'],
      'notices of partners with and without crew:medical:read',
    );
    const lists = new Map<string, Map<string, unknown>>();
    for (const { partner_id: partnerId, data } of notices) {
      if (!lists.has(partnerId)) lists.set(partnerId, await nextChanges(db, partnerId, today));
      const listed = lists.get(partnerId)!.get(`${String(data.crew_unique_id)}|${String(data.vessel_id)}`);
      assert.deepEqual(
        listed,
        { on: data.on, overall_status: data.overall_status, requirement_keys: data.requirement_keys },
        `${partnerId}: ${JSON.stringify(data)}`,
      );
    }
    const crew4 = (partnerId: string) => notices.filter((n) => n.partner_id === partnerId && n.data.crew_unique_id === 'crew_4');
    assert.ok(crew4('ptn_mgmt').some((n) => n.data.on === addDay(START.slice(0, 10), 60)));
    assert.ok(crew4('ptn_basic').every((n) => n.data.on === addDay(START.slice(0, 10), 70)) && crew4('ptn_basic').length > 0);
  });
});
