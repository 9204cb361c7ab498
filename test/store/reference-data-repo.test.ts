import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, it } from 'node:test';
import { openStoredFile, storeFile } from '../../src/services/files/stored-files.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { consentsFor } from '../../src/store/repositories/consents-repo.ts';
import { existingIds } from '../../src/store/repositories/ids-repo.ts';
import { bool, fromJson, toJson } from '../../src/store/repositories/json.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import {
  countReferenceRows,
  replaceConsents,
  replaceContractVessels,
  upsertCrewKeepingTimes,
  upsertEmployers,
  upsertPartners,
  upsertVessels,
} from '../../src/store/repositories/reference-data-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { wholeFile } from '../support/stored-file.ts';
import { describeEachStore } from '../support/stores.ts';

const T = '2026-11-22T10:00:00.000Z';
const vessel = (vessel_id: string) => ({
  vessel_id,
  employer_id: 'emp_a',
  vessel_name: `MV ${vessel_id}`,
  imo: null,
  mmsi: null,
  flag_state: 'GB',
  vessel_type: 'bulk_carrier',
  gross_tonnage: 1000,
  propulsion_kw: 500,
  trading_area: 'unlimited' as const,
  is_test: 0 as const,
});
const partner = (partner_id: string, name: string, created_at: string) => ({
  partner_id,
  name,
  kind: 'external' as const,
  employer_id: null,
  tier: null,
  scope_overrides: null,
  upgraded: 0 as const,
  contract_scopes: toJson(['vessels:fleet:read']),
  rate_limit: null,
  created_at,
});

describeEachStore('reference data writes in the store', ({ store }) => {
  before(async () => loadFixtures(store().db, [writeFixture(miniFixture())], () => new Date(T)));

  it('upserts are idempotent and update every column but the kept ones (a partner keeps its creation time)', async () => {
    const db = store().db;
    const before = await countReferenceRows(db);
    await upsertEmployers(db, [{ employer_id: 'emp_a', name: 'Alpha Renamed' }]);
    await upsertPartners(db, [partner('ptn_x', 'External X', T)]);
    await upsertPartners(db, [partner('ptn_x', 'External X2', '2030-01-01T00:00:00.000Z')]);
    const x = await findPartner(db, 'ptn_x');
    assert.deepEqual([x?.name, x?.contractScopes], ['External X2', ['vessels:fleet:read']]);
    const created = await db.selectFrom('partners').select('created_at').where('partner_id', '=', 'ptn_x').executeTakeFirst();
    assert.equal(created?.created_at, T, 'created_at kept');
    const after = await countReferenceRows(db);
    assert.deepEqual(after, { ...before, partners: before.partners! + 1 });
    await upsertEmployers(db, []);
  });

  it('a file is stored once: a second write of the same id changes nothing', async () => {
    const db = store().db;
    const id = createHash('sha256').update('abc').digest('hex');
    assert.equal((await storeFile(db, id, 'image/png', [Buffer.from('abc')], '2026-11-22T10:00:00.000Z')).outcome, 'created');
    assert.equal(
      (await storeFile(db, id, 'application/pdf', [Buffer.from('a'), Buffer.from('bc')], '2026-11-22T10:00:00.000Z')).outcome,
      'held_already',
    );
    const file = await openStoredFile(db, id);
    assert.deepEqual([file?.contentType, file?.size, (await wholeFile(file!)).toString()], ['image/png', 3, 'abc']);
  });

  it('contract vessels and consents are replaced as a set (duplicates folded, empty clears)', async () => {
    const db = store().db;
    await upsertPartners(db, [partner('ptn_y', 'External Y', T)]);
    await upsertVessels(db, [vessel('ves_b'), vessel('ves_c')]);
    const contract = async () =>
      (await db.selectFrom('contract_vessels').select('vessel_id').where('partner_id', '=', 'ptn_y').orderBy('vessel_id').execute()).map(
        (r) => r.vessel_id,
      );
    await replaceContractVessels(db, 'ptn_y', ['ves_a', 'ves_b']);
    await replaceContractVessels(db, 'ptn_y', ['ves_c', 'ves_b']);
    assert.deepEqual(await contract(), ['ves_b', 'ves_c']);
    await replaceContractVessels(db, 'ptn_y', []);
    assert.deepEqual(await contract(), []);

    await replaceConsents(db, 'crew_2', 'ptn_a', ['status', 'profile', 'status']);
    assert.deepEqual([...(await consentsFor(db, 'ptn_a', ['crew_2'])).get('crew_2')!].sort(), ['profile', 'status']);
    await replaceConsents(db, 'crew_2', 'ptn_a', ['documents']);
    assert.deepEqual([...(await consentsFor(db, 'ptn_a', ['crew_2'])).get('crew_2')!], ['documents']);
    await replaceConsents(db, 'crew_2', 'ptn_a', []);
    assert.equal((await consentsFor(db, 'ptn_a', ['crew_2'])).has('crew_2'), false);
    assert.deepEqual(
      [...(await consentsFor(db, 'ptn_a', ['crew_1'])).get('crew_1')!].sort(),
      ['documents', 'status'],
      "another crew member's untouched",
    );
  });

  it('existing ids: only those present come back', async () => {
    const db = store().db;
    assert.deepEqual([...(await existingIds(db, 'crew', ['crew_1', 'crew_9', 'crew_2']))].sort(), ['crew_1', 'crew_2']);
    assert.deepEqual([...(await existingIds(db, 'vessels', ['ves_a', 'ves_z']))], ['ves_a']);
    assert.equal((await existingIds(db, 'documents', [])).size, 0);
  });

  it('crew upserts keep the stored times for unchanged data, the profile time for a status change, and take a stated one', async () => {
    const db = store().db;
    const STATUS = new Set(['verification_status', 'background_check_status']);
    const read = () => db.selectFrom('crew').selectAll().where('crew_unique_id', '=', 'crew_2').executeTakeFirstOrThrow();
    const times = async () => {
      const r = await read();
      return [r.profile_updated_at, r.updated_at];
    };
    const { profile_updated_at: p0, updated_at: u0, ...row } = await read();
    await upsertCrewKeepingTimes(db, [{ row }], '2026-12-01T00:00:00.000Z', STATUS);
    assert.deepEqual(await times(), [p0, u0], 'unchanged: nothing moves');
    await upsertCrewKeepingTimes(db, [{ row: { ...row, background_check_status: 'clear' } }], '2026-12-02T00:00:00.000Z', STATUS);
    assert.deepEqual(await times(), [p0, '2026-12-02T00:00:00.000Z'], 'a status change: the profile time stays');
    await upsertCrewKeepingTimes(
      db,
      [{ row: { ...row, background_check_status: 'clear', bio: 'At sea' } }],
      '2026-12-03T00:00:00.000Z',
      STATUS,
    );
    assert.deepEqual(await times(), ['2026-12-03T00:00:00.000Z', '2026-12-03T00:00:00.000Z']);
    await upsertCrewKeepingTimes(
      db,
      [{ row: { ...row, background_check_status: 'clear', bio: 'At sea' }, profileUpdatedAt: '2026-01-01T00:00:00.000Z' }],
      '2026-12-04T00:00:00.000Z',
      STATUS,
    );
    assert.deepEqual(await times(), ['2026-01-01T00:00:00.000Z', '2026-12-04T00:00:00.000Z'], 'a stated profile time wins');
    await upsertCrewKeepingTimes(
      db,
      [{ row: { ...row, crew_unique_id: 'crew_new', email: null, email_normalized: null } }],
      '2026-12-05T00:00:00.000Z',
      STATUS,
    );
    const added = await db
      .selectFrom('crew')
      .select(['profile_updated_at', 'updated_at'])
      .where('crew_unique_id', '=', 'crew_new')
      .executeTakeFirstOrThrow();
    assert.deepEqual([added.profile_updated_at, added.updated_at], ['2026-12-05T00:00:00.000Z', '2026-12-05T00:00:00.000Z']);
    await upsertCrewKeepingTimes(db, [], '2026-12-06T00:00:00.000Z', STATUS);
  });

  it('more rows than one statement may bind are written whole, in batches', async () => {
    const db = store().db;
    const many = Array.from({ length: 16_000 }, (_, i) => ({ employer_id: `emp_bulk_${i}`, name: `Bulk ${i}` }));
    await upsertEmployers(db, many);
    const ids = await existingIds(
      db,
      'employers',
      many.map((e) => e.employer_id),
    );
    assert.equal(ids.size, 16_000);
  });

  it('JSON columns and booleans: one format both ways', () => {
    assert.equal(toJson(['a', 1]), '["a",1]');
    assert.deepEqual(fromJson(toJson({ a: [1] })), { a: [1] });
    assert.equal(fromJson(null), null);
    assert.deepEqual([bool(true), bool(false), bool(undefined), bool(undefined, true)], [1, 0, 0, 1]);
  });
});
