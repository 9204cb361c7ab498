import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import fc from 'fast-check';
import { fleetOf, type FleetRef } from '../../src/domain/partner.ts';
import { CONSENT_CATEGORIES } from '../../src/domain/vocabulary.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { consentsFor } from '../../src/store/repositories/consents-repo.ts';
import { findCrewProfile, toCrewProfile } from '../../src/store/repositories/crew-repo.ts';
import {
  crewAccessOnFleet,
  crewAssignmentsOnFleet,
  crewCheckOnFleet,
  crewOnFleet,
} from '../../src/store/repositories/crew-on-fleet-repo.ts';
import { crewEvaluationDocuments, type EvaluationDocumentWithFile } from '../../src/store/repositories/documents-repo.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { NOW, worldFixture } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const byId = (a: EvaluationDocumentWithFile, b: EvaluationDocumentWithFile) => a.documentId.localeCompare(b.documentId);

const CREW = ['crew_ana', 'crew_ben', 'crew_cho', 'crew_dan', 'crew_eve', 'crew_fay', 'crew_nobody'];
const PARTNERS = ['ptn_full', 'ptn_b', 'ptn_basic'];

// Every kind of fleet a read can be asked about: the partners' own (drawn below), a contract's
// vessels (ptn_b's contract holds ves_a2 and the test vessel ves_at of emp_a, and ves_b1 of emp_b), an
// employer nobody has, no fleet, and every vessel (the operator's).
const OTHER_FLEETS: FleetRef[] = [
  { kind: 'contract', partnerId: 'ptn_b', isTest: false },
  { kind: 'contract', partnerId: 'ptn_b', isTest: true },
  { kind: 'employer', employerId: 'emp_nobody', isTest: false },
  { kind: 'none' },
  { kind: 'all' },
];

describeEachStore('crew access in one round trip', ({ store }) => {
  before(async () => {
    await loadFixtures(store().db, [writeFixture(worldFixture())], () => NOW);
    await store()
      .db.insertInto('contract_vessels')
      .values(['ves_a2', 'ves_at', 'ves_b1'].map((vessel_id) => ({ partner_id: 'ptn_b', vessel_id })))
      .execute();
  });

  it('equals the on-fleet assignments, the consents, the crew row and the documents read apart, whatever consents and assignments hold', async () => {
    const db = store().db;
    const change = fc.record({
      crew: fc.constantFrom(...CREW.slice(0, 6)),
      partner: fc.constantFrom(...PARTNERS),
      category: fc.constantFrom(...CONSENT_CATEGORIES),
      give: fc.boolean(),
      status: fc.constantFrom('invited', 'active', 'on_leave', 'signed_off' as const),
    });
    const ask = fc.record({
      crew: fc.constantFrom(...CREW),
      partner: fc.constantFrom(...PARTNERS),
      mode: fc.constantFrom('live', 'test' as const),
      // Past the partners' own fleets: one of OTHER_FLEETS.
      other: fc.option(fc.constantFrom(...OTHER_FLEETS), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(change, { maxLength: 4 }), fc.array(ask, { minLength: 1, maxLength: 4 }), async (changes, asks) => {
        for (const c of changes) {
          await db
            .deleteFrom('consents')
            .where('crew_unique_id', '=', c.crew)
            .where('partner_id', '=', c.partner)
            .where('category', '=', c.category)
            .execute();
          if (c.give)
            await db.insertInto('consents').values({ crew_unique_id: c.crew, partner_id: c.partner, category: c.category }).execute();
          await db.updateTable('assignments').set({ status: c.status }).where('crew_unique_id', '=', c.crew).execute();
        }
        for (const a of asks) {
          const fleet = a.other ?? fleetOf((await findPartner(db, a.partner))!, a.mode);
          const fast = await crewAccessOnFleet(db, fleet, a.crew, a.partner);
          const assignments = await crewAssignmentsOnFleet(db, fleet, a.crew);
          assert.deepEqual(fast.assignments, assignments);
          const consents = assignments.length === 0 ? new Set() : ((await consentsFor(db, a.partner, [a.crew])).get(a.crew) ?? new Set());
          assert.deepEqual([...fast.consents].sort(), [...consents].sort());
          // The profile's read: the same answer, with the crew row beside it.
          const withRow = await crewOnFleet(db, fleet, a.crew, a.partner);
          const profile = await findCrewProfile(db, a.crew);
          assert.deepEqual(withRow && toCrewProfile(withRow.crew), profile);
          assert.equal(withRow?.onFleet ?? false, assignments.length > 0);
          assert.deepEqual([...(withRow?.consents ?? [])].sort(), [...consents].sort());
          // The compliance check's read: the same answer, with the documents it evaluates beside it.
          const { documents: checked, ...access } = await crewCheckOnFleet(db, fleet, a.crew, a.partner);
          assert.deepEqual(access, fast);
          const documents = assignments.length === 0 ? [] : await crewEvaluationDocuments(db, a.crew);
          assert.deepEqual([...checked].sort(byId), [...documents].sort(byId));
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 25) },
    );
  });
});
