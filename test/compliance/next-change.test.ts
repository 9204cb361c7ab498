import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { isListable, toDocumentWire } from '../../src/domain/document.ts';
import { addDays } from '../../src/domain/compliance/dates.ts';
import { complianceChangedPayload, evaluateCompliance, TimeHorizon, type EvaluationInput } from '../../src/domain/compliance/index.ts';
import { ALL_BST_CODES, ALL_ROLES, BULK_CARRIER, CATALOGUE, capacity, doc, OIL_TANKER } from '../support/compliance.ts';

/*
 * Incremental sync re-diffs a pair only when the date kept with its snapshot has come. That date
 * must never be late: on every day before it, what is sent (document payloads and compliance
 * payloads) is what was sent on the day it was computed.
 */
const TODAY = '2026-03-01';
const CODES = [
  'medical_fitness',
  'drug_alcohol_test',
  'bst',
  'security_awareness',
  'coc',
  'flag_endorsement',
  'tanker_basic',
  'cop_ii_4',
  'passport',
];
const day = fc.integer({ min: -400, max: 900 }).map((n) => addDays(TODAY, n));

const docs = fc
  .array(
    fc.record({
      code: fc.constantFrom(...CODES),
      stcwCodes: fc.subarray(ALL_BST_CODES),
      expiry: fc.option(day, { nil: null, freq: 6 }),
      noExpiry: fc.boolean(),
      verification: fc.constantFrom('verified', 'verified', 'pending'),
      review: fc.constantFrom('approved', 'approved', 'flagged'),
      flagState: fc.option(fc.constantFrom('PA', 'LR', 'GB'), { nil: null }),
      isCurrent: fc.constantFrom(true, true, false),
    }),
    { maxLength: 14 },
  )
  .map((specs) =>
    specs.map((s, i) =>
      doc({
        id: `doc_${i}`,
        ...s,
        noExpiry: s.noExpiry && s.expiry === null,
        capacities: s.code === 'coc' ? [capacity('master'), capacity('chief_engineer')] : [],
      }),
    ),
  );

it('before the date TimeHorizon gives, neither documents nor compliance payloads change with the calendar', () => {
  fc.assert(
    fc.property(
      docs,
      fc.constantFrom(...ALL_ROLES),
      fc.constantFrom(BULK_CARRIER, OIL_TANKER),
      fc.integer({ min: 0, max: 120 }),
      fc.integer({ min: 1, max: 400 }),
      (documents, role, vessel, windowDays, probe) => {
        const input = (today: string): EvaluationInput => ({
          role,
          positionName: null,
          vessel,
          catalogue: CATALOGUE,
          documents,
          today,
          windowDays,
        });
        const now = evaluateCompliance(input(TODAY));
        const h = new TimeHorizon(TODAY, windowDays);
        h.evaluation(now);
        for (const d of documents) if (isListable(d)) h.document(d);
        const later = addDays(TODAY, probe);
        if (h.earliest !== null && later >= h.earliest) return;
        const then = evaluateCompliance(input(later));
        for (const medical of [true, false]) {
          assert.deepEqual(complianceChangedPayload(then, 'c', medical), complianceChangedPayload(now, 'c', medical));
        }
        for (const d of documents.filter(isListable)) assert.deepEqual(toDocumentWire(d, later), toDocumentWire(d, TODAY));
      },
    ),
    { numRuns: 400 },
  );
});

it('the date is not needlessly early: a lone dated requirement is due when it enters the window, then the day after expiry', () => {
  const medical = [doc({ id: 'm', code: 'medical_fitness', expiry: '2026-09-01' })];
  const h = new TimeHorizon(TODAY, 90);
  h.evaluation(
    evaluateCompliance({
      role: 'cook',
      positionName: null,
      vessel: BULK_CARRIER,
      catalogue: CATALOGUE,
      documents: medical,
      today: TODAY,
      windowDays: 90,
    }),
  );
  assert.equal(h.earliest, '2026-06-03');
  const after = new TimeHorizon('2026-06-03', 90);
  after.document(medical[0]!);
  assert.equal(after.earliest, '2026-09-02');
});
