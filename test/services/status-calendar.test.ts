import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import fc from 'fast-check';
import { addDays } from '../../src/domain/compliance/dates.ts';
import { evaluateCompliance } from '../../src/domain/compliance/index.ts';
import { nextStatusChangeFrom } from '../../src/domain/compliance/status-calendar.ts';
import { nextStatusChange } from '../../src/domain/compliance/status-forecast.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { readCatalogue } from '../../src/store/repositories/compliance-repo.ts';
import { listListableDocuments } from '../../src/store/repositories/documents-repo.ts';
import { crewAssignmentsOnFleet } from '../../src/store/repositories/crew-on-fleet-repo.ts';
import { baseFixture, crewArb, loadCrew } from '../support/fleet-compliance-world.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { NOW, TODAY } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * The fleet list's next change, worked out from one evaluation's dates, against the obvious path:
 * nextStatusChange, which evaluates the documents again on every date where something may change
 * (itself tested against a day-by-day evaluation in test/http/fleet-compliance-differential.test.ts).
 */
describeEachStore('the next change from one evaluation against evaluating on every candidate date', ({ store }) => {
  let run = 0;
  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json', writeFixture(baseFixture())], () => NOW);
  });

  it('gives the same date, status and requirement keys, with and without hidden medical rows, for any horizon', async () => {
    const db = store().db;
    const catalogue = await readCatalogue(db);
    let changes = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(crewArb, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: -30, max: 400 }),
        fc.integer({ min: 0, max: 730 }),
        fc.integer({ min: 0, max: 120 }),
        fc.boolean(),
        async (generated, offset, horizonDays, windowDays, clean) => {
          // Clean crew: active on ves_a (flag GB) with verified, dated documents of that flag only and every BST module,
          // so that most are compliant first and change later.
          const crew = clean
            ? generated.map((c) => ({
                ...c,
                vessel: 'ves_a' as const,
                status: 'active' as const,
                docs: c.docs.map((d) => ({
                  ...d,
                  verification: 'verified' as const,
                  flag: 'GB' as const,
                  expiry: Math.max(d.expiry ?? 600, 200),
                  bst: ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'],
                })),
              }))
            : generated;
          const ids = await loadCrew(db, `s${++run}`, crew);
          const from = addDays(TODAY, clean ? Math.min(offset, 60) : offset);
          for (const id of ids) {
            const documents = await listListableDocuments(db, [id], true);
            for (const a of await crewAssignmentsOnFleet(db, { kind: 'all' }, id)) {
              const evaluateOn = (today: string) =>
                evaluateCompliance({
                  role: a.assignment.role,
                  positionName: a.assignment.positionName,
                  vessel: a.vessel,
                  catalogue,
                  documents,
                  today,
                  windowDays,
                });
              const first = evaluateOn(from);
              for (const hidden of [undefined, (r: { group: string }) => r.group === 'medical']) {
                const options = { windowDays, horizonDays, ...(hidden ? { hidden } : {}) };
                const slow = nextStatusChange(evaluateOn, from, options, first);
                assert.deepEqual(
                  nextStatusChangeFrom(first, from, options),
                  slow,
                  `${id} from ${from}, window ${windowDays}, horizon ${horizonDays}`,
                );
                if (slow) changes += 1;
              }
            }
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 25) },
    );
    assert.ok(changes > 0, 'some generated crew change status within the horizon');
  });
});
