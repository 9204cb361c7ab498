import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { BACKGROUND_CHECK_STATUSES, VERIFICATION_STATUSES } from '../../src/domain/vocabulary.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import type { Database } from '../../src/store/database.ts';
import { findCrewRows, upsertCrewKeepingTimes, type CrewWrite } from '../../src/store/repositories/reference-data-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

const T = '2026-11-22T10:00:00.000Z';
const NOW = '2026-12-01T00:00:00.000Z';
const STATUS = new Set(['verification_status', 'background_check_status']);
const NEW_IDS = ['crew_new_1', 'crew_new_2'];

/** Every crew row as stored, by id. */
const crewTable = async (db: Kysely<Database>) =>
  (await db.selectFrom('crew').selectAll().orderBy('crew_unique_id').execute()).map((r) => ({ ...r }));

/*
 * Ingestion reads a batch's crew rows once and hands them to the crew writer
 * (src/services/ingest/apply-changes.ts, loadReferences): upsertCrewKeepingTimes given the rows
 * read beforehand must write what it writes when it reads them itself.
 */
describeEachStore('crew writes with the stored rows passed down', ({ store }) => {
  before(async () => loadFixtures(store().db, [writeFixture(miniFixture())], () => new Date(T)));

  it('write the same rows and times as crew writes that read the rows themselves', async () => {
    const db = store().db;
    const stored = await crewTable(db);
    const ids = [...stored.map((r) => r.crew_unique_id), ...NEW_IDS];
    const write = fc.record({
      id: fc.constantFrom(...ids),
      bio: fc.option(fc.constantFrom('At sea', 'Ashore'), { nil: undefined }),
      verification: fc.option(fc.constantFrom(...VERIFICATION_STATUSES), { nil: undefined }),
      background: fc.option(fc.constantFrom(...BACKGROUND_CHECK_STATUSES), { nil: undefined }),
      statedProfileAt: fc.option(fc.constant('2026-01-01T00:00:00.000Z'), { nil: undefined }),
    });
    const writes = fc.uniqueArray(write, { selector: (w) => w.id, maxLength: 5 }).map((list) =>
      list.map(({ id, bio, verification, background, statedProfileAt }): CrewWrite => {
        const {
          profile_updated_at: _p,
          updated_at: _u,
          ...base
        } = stored.find((r) => r.crew_unique_id === id) ?? {
          ...stored[0]!,
          crew_unique_id: id,
          email: null,
          email_normalized: null,
        };
        return {
          row: {
            ...base,
            ...(bio ? { bio } : {}),
            ...(verification ? { verification_status: verification } : {}),
            ...(background ? { background_check_status: background } : {}),
          },
          ...(statedProfileAt ? { profileUpdatedAt: statedProfileAt } : {}),
        };
      }),
    );
    // The rows passed down may cover more crew than are written (those a batch's documents refer to).
    const extra = fc.subarray(ids);
    let changed = 0;
    await fc.assert(
      fc.asyncProperty(writes, extra, async (list, more) => {
        const outcome = async (passDown: boolean) => {
          const trx = await db.startTransaction().execute();
          try {
            const read = passDown ? await findCrewRows(trx, [...new Set([...list.map((w) => w.row.crew_unique_id), ...more])]) : undefined;
            await upsertCrewKeepingTimes(trx, list, NOW, STATUS, read);
            return await crewTable(trx);
          } finally {
            await trx.rollback().execute();
          }
        };
        const [readHere, passedDown] = [await outcome(false), await outcome(true)];
        assert.deepEqual(passedDown, readHere);
        if (JSON.stringify(readHere) !== JSON.stringify(stored)) changed += 1;
      }),
      { numRuns: 60 },
    );
    assert.ok(changed > 0, 'some of the writes changed the table');
  });
});
