import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import {
  checkCompliance,
  chooseAssignment,
  evaluateLive,
  type ComplianceDeps,
  type LiveEvaluation,
} from '../../src/services/compliance/check-compliance.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { createReadCache } from '../../src/services/read-cache/read-cache.ts';
import { VersionedCache } from '../../src/services/read-cache/versioned-cache.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { crewAssignmentsOnFleet } from '../../src/store/repositories/crew-on-fleet-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

/** Writes that change an evaluation's inputs, as plain SQL (the same text on both stores). */
const WRITES = {
  expiry: (n: number) =>
    `update documents set expiry_date = '2026-${String(11 + (n % 2)).padStart(2, '0')}-${String(10 + n).padStart(2, '0')}' where document_id = 'doc_new'`,
  withdrawn: (n: number) => `update documents set is_live = ${n % 2} where document_id = 'doc_new'`,
  processing: (n: number) =>
    `update documents set processing_state = '${n % 2 ? 'processing' : 'processed'}' where document_id = 'doc_new'`,
  verification: (n: number) =>
    `update documents set verification_status = '${n % 2 ? 'unverified' : 'verified'}' where document_id = 'doc_new'`,
  role: (n: number) => `update assignments set role = '${['master', 'chief_officer', 'cook'][n % 3]}' where crew_unique_id = 'crew_1'`,
  vessel: (n: number) =>
    `update vessels set vessel_type = '${n % 2 ? 'oil_tanker' : 'bulk_carrier'}', gross_tonnage = ${400 + n * 1000} where vessel_id = 'ves_a'`,
} as const;

describeEachStore('compliance evaluations reused while the data version holds', ({ store, url }) => {
  let other: Store;
  let now = new Date('2026-11-22T10:00:00.000Z');
  const clock = () => now;
  // One catalogue cache for both paths: they differ only in the evaluation's read.
  const catalogue = new CatalogueCache(clock);
  const cache = new VersionedCache<LiveEvaluation>({ maxEntries: 4 });

  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json', writeFixture(miniFixture())], clock);
    other = await openStore(url());
  });
  after(() => other.close());

  it('a reused evaluation equals a fresh one after writes of every kind by plain SQL from another connection, and days passing', async () => {
    const db = store().db;
    const base: ComplianceDeps = {
      clock,
      catalogue,
      windowDays: 90,
      deadlineMs: 10_000,
      fault: 'none',
      evaluate: (input) => evaluateLive(db, input),
    };
    const reads = createReadCache(db, clock, { evaluations: cache });
    // The version read for each call, as the HTTP check does.
    const reusing = async (): Promise<ComplianceDeps> => ({ ...base, evaluate: (await reads.checkReads()).evaluate });
    const check = async (deps: ComplianceDeps) => {
      const assignment = chooseAssignment(await crewAssignmentsOnFleet(db, { kind: 'all' }, 'crew_1'), 'crew_1');
      return checkCompliance(db, deps, 'crew_1', assignment);
    };
    const step = fc.oneof(
      fc.record({ kind: fc.constantFrom(...(Object.keys(WRITES) as (keyof typeof WRITES)[])), n: fc.nat(5) }),
      fc.record({ kind: fc.constant('day' as const), n: fc.nat(60) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          await check(await reusing());
          if (s.kind === 'day') now = new Date(Date.UTC(2026, 10, 22 + s.n, 10));
          else await sql.raw(WRITES[s.kind](s.n)).execute(other.db);
          const [reused, fresh] = [await check(await reusing()), await check(base)];
          assert.equal(reused.source, 'live_evaluator');
          assert.deepEqual(reused.evaluation, fresh.evaluation, JSON.stringify(s));
          assert.deepEqual(reused.documents, fresh.documents);
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 15) },
    );
    assert.ok(cache.size.entries >= 1 && cache.size.entries <= 4);
  });
});
