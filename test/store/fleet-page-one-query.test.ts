import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import fc from 'fast-check';
import { ALL_SCOPES, type Scope } from '../../src/domain/scopes.ts';
import { generateData } from '../../src/services/generate/generate-data.ts';
import { listFleetPage, toFleetEntryWire, type FleetEntryWire } from '../../src/services/read-api/fleet.ts';
import type { PartnerContext } from '../../src/services/visibility/partner-context.ts';
import { fleetOf } from '../../src/domain/partner.ts';
import { fleetPage } from '../../src/store/repositories/fleet-repo.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import type { Db } from '../../src/store/database.ts';
import { describeEachStore } from '../support/stores.ts';

const KEY = Buffer.alloc(32, 7);
const NOW = new Date('2026-11-22T10:00:00.000Z');

/** The obvious way: the keyset page, then per crew member a query for its consents and its documents. */
async function slowPage(
  db: Db,
  ctx: PartnerContext,
  after: { vesselId: string; crewUniqueId: string } | null,
  limit: number,
  today: string,
  windowDays: number,
): Promise<FleetEntryWire[]> {
  const rows = await fleetPage(db, fleetOf(ctx.partner, ctx.mode), after, limit);
  const to = new Date(`${today}T00:00:00Z`);
  to.setUTCDate(to.getUTCDate() + windowDays);
  const until = to.toISOString().slice(0, 10);
  const out: FleetEntryWire[] = [];
  for (const r of rows) {
    const consents = new Set(
      (
        await db
          .selectFrom('consents')
          .select('category')
          .where('partner_id', '=', ctx.partner.partnerId)
          .where('crew_unique_id', '=', r.crewUniqueId)
          .execute()
      ).map((c) => c.category),
    );
    let expiring = 0;
    if (ctx.scopes.has('crew:documents:read') && consents.has('documents')) {
      const docs = await db.selectFrom('documents').selectAll().where('crew_unique_id', '=', r.crewUniqueId).execute();
      expiring = docs.filter(
        (d) =>
          d.processing_state === 'processed' &&
          d.is_current === 1 &&
          d.is_live === 1 &&
          d.no_expiry === 0 &&
          d.expiry_date !== null &&
          d.expiry_date >= today &&
          d.expiry_date <= until &&
          (ctx.scopes.has('crew:medical:read') || d.document_class !== 'medical'),
      ).length;
    }
    out.push(toFleetEntryWire(r, ctx.scopes.has('crew:status:read') && consents.has('status'), expiring));
  }
  return out;
}

describeEachStore('the fleet page in one query agrees with the page, consents and counts read one by one', ({ store }) => {
  before(async () => {
    await generateData(store().db, { crew: 400, vessels: 8, partners: 3, docsPerCrew: 6, seed: 12 }, () => NOW);
  });

  it('on generated fleets, for any partner, mode, scopes, page size, position and window', async () => {
    const partners = (await store().db.selectFrom('partners').select('partner_id').orderBy('partner_id').execute()).map(
      (p) => p.partner_id,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...partners),
        fc.constantFrom('live' as const, 'test' as const),
        fc.subarray([...ALL_SCOPES] as Scope[]),
        fc.integer({ min: 1, max: 200 }),
        fc.nat(300),
        fc.integer({ min: 0, max: 730 }),
        fc.integer({ min: -400, max: 400 }),
        async (partnerId, mode, scopes, limit, skip, windowDays, dayShift) => {
          const partner = (await findPartner(store().db, partnerId))!;
          const ctx: PartnerContext = { partner, mode, keyId: 'key_x', scopes: new Set(scopes) };
          const today = new Date(NOW.getTime() + dayShift * 86_400_000).toISOString().slice(0, 10);
          const all = await fleetPage(store().db, fleetOf(partner, mode), null, skip + 1);
          const start = all[skip - 1] ?? null;
          const after = start && skip > 0 ? { vesselId: start.vesselId, crewUniqueId: start.crewUniqueId } : null;
          const fast = await listFleetPage(store().db, ctx, KEY, { limit, windowDays, after, today });
          assert.deepEqual(fast.items, await slowPage(store().db, ctx, after, limit, today, windowDays));
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 30) },
    );
  });
});
