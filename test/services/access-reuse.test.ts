import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { AppError } from '../../src/domain/app-error.ts';
import type { ConsentCategory } from '../../src/domain/vocabulary.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { createReadCache } from '../../src/services/read-cache/read-cache.ts';
import { VersionedCache } from '../../src/services/read-cache/versioned-cache.ts';
import { requireCrewAccess, storeCrewAccess, type CrewAccess, type ReadCrewAccess } from '../../src/services/visibility/access.ts';
import type { PartnerContext } from '../../src/services/visibility/partner-context.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

const CATEGORIES = ['status', 'documents', 'compliance'] as const satisfies readonly ConsentCategory[];

/** Writes that change a fleet-and-consent answer, as plain SQL (the same text on both stores). */
const WRITES = {
  grant: (n: number) =>
    `insert into consents (crew_unique_id, partner_id, category) values ('crew_1', 'ptn_a', '${CATEGORIES[n % 3]}') on conflict do nothing`,
  withdraw: (n: number) =>
    `delete from consents where crew_unique_id = 'crew_1' and partner_id = 'ptn_a' and category = '${CATEGORIES[n % 3]}'`,
  status: (n: number) =>
    `update assignments set status = '${['invited', 'active', 'on_leave', 'signed_off'][n % 4]}' where crew_unique_id = 'crew_1'`,
  role: (n: number) =>
    `update assignments set role = '${['master', 'chief_officer', 'cook'][n % 3]}', as_of = '2026-10-0${1 + (n % 9)}T00:00:00Z' where crew_unique_id = 'crew_1'`,
  testVessel: (n: number) => `update vessels set is_test = ${n % 2} where vessel_id = 'ves_a'`,
  vessel: (n: number) =>
    `update vessels set vessel_type = '${n % 2 ? 'oil_tanker' : 'bulk_carrier'}', gross_tonnage = ${400 + n * 1000} where vessel_id = 'ves_a'`,
} as const;

/** What a partner would notice: the answer, or the error code it is refused with. */
async function outcome(run: () => Promise<CrewAccess>): Promise<unknown> {
  try {
    const access = await run();
    return { assignments: access.assignments, consents: [...access.consents].sort() };
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describeEachStore('fleet-and-consent answers reused while the data version holds', ({ store, url }) => {
  let other: Store;
  const clock = () => new Date('2026-11-22T10:00:00.000Z');
  const cache = new VersionedCache<CrewAccess>({ maxEntries: 4 });

  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json', writeFixture(miniFixture())], clock);
    other = await openStore(url());
  });
  after(() => other.close());

  it('a reused answer equals a fresh one after writes of every kind by plain SQL from another connection', async () => {
    const db = store().db;
    const partner = (await findPartner(db, 'ptn_a'))!;
    const reads = createReadCache(db, clock, { accesses: cache });
    // The version read for each call, as the HTTP check does.
    const reusing = async (): Promise<ReadCrewAccess> => (await reads.checkReads()).crewAccess;
    const step = fc.record({
      kind: fc.constantFrom(...(Object.keys(WRITES) as (keyof typeof WRITES)[])),
      n: fc.nat(8),
      mode: fc.constantFrom('live' as const, 'test' as const),
      category: fc.constantFrom(...CATEGORIES),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          const ctx: PartnerContext = { partner, mode: s.mode, keyId: 'key_test', scopes: new Set() };
          await outcome(async () => requireCrewAccess(await reusing(), ctx, 'crew_1', s.category));
          await sql.raw(WRITES[s.kind](s.n)).execute(other.db);
          const reused = await outcome(async () => requireCrewAccess(await reusing(), ctx, 'crew_1', s.category));
          const fresh = await outcome(() => requireCrewAccess(storeCrewAccess(db), ctx, 'crew_1', s.category));
          assert.deepEqual(reused, fresh, JSON.stringify(s));
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 15) },
    );
    assert.ok(cache.size.entries >= 1 && cache.size.entries <= 4);
  });

  it('a withdrawn consent refuses the next check at once, after the answer was reused', async () => {
    const db = store().db;
    const partner = (await findPartner(db, 'ptn_a'))!;
    const ctx: PartnerContext = { partner, mode: 'live', keyId: 'key_test', scopes: new Set() };
    const reads = createReadCache(db, clock, { accesses: cache });
    await sql.raw(WRITES.status(1)).execute(other.db);
    await sql.raw(WRITES.testVessel(0)).execute(other.db);
    await sql.raw(WRITES.grant(2)).execute(other.db);
    const check = async () => outcome(async () => requireCrewAccess((await reads.checkReads()).crewAccess, ctx, 'crew_1', 'compliance'));
    const first = await check();
    assert.ok((first as { consents: string[] }).consents.includes('compliance'));
    assert.deepEqual(await check(), first);
    await sql.raw(WRITES.withdraw(2)).execute(other.db);
    assert.equal(await check(), 'consent_required');
  });
});
