import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/store/database.ts';
import { runDiff } from '../../src/sync/diff/run-diff.ts';
import { CONSENT_CATEGORIES } from '../../src/domain/vocabulary.ts';
import { toJson } from '../../src/store/repositories/json.ts';
import { replaceConsents, replaceContractVessels, upsertPartners } from '../../src/store/repositories/reference-data-repo.ts';
import { diffDeps } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedPartners, T0 } from '../support/sync-world.ts';

/** More vessels than either store takes parameters in one statement (32,766 on SQLite, 65,535 on Postgres). */
const VESSELS = 70_000;

/** `count` more vessels of emp_sync (seedPartners' fleet), in one statement. */
async function addVessels(db: Db, count: number): Promise<void> {
  await sql`
    insert into vessels (vessel_id, employer_id, vessel_name, imo, mmsi, flag_state, vessel_type, gross_tonnage, propulsion_kw, trading_area, is_test)
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
    select 'ves_big_' || cast(i as text), 'emp_sync', 'Big ' || cast(i as text), null, null, 'GB', 'bulk_carrier', 30000, 9000, 'unlimited', 0 from n
  `.execute(db);
}

/** An external partner whose contract names every vessel, as ingestion writes it. */
async function seedContractPartner(db: Db, partnerId: string): Promise<void> {
  await upsertPartners(db, [
    {
      partner_id: partnerId,
      name: 'Contract',
      kind: 'external',
      employer_id: null,
      tier: 'management',
      scope_overrides: null,
      upgraded: 0,
      contract_scopes: toJson(['crew:status:subscribe']),
      rate_limit: null,
      created_at: T0,
    },
  ]);
  const ids = (await db.selectFrom('vessels').select('vessel_id').execute()).map((r) => r.vessel_id);
  await replaceContractVessels(db, partnerId, ids);
  await replaceConsents(db, 'crew_1', partnerId, CONSENT_CATEGORIES);
  await seedEndpoint(db, partnerId, 'https://receiver.invalid/hook');
}

const now = () => new Date(T0);

/** Runs the diff; the (partner, crew member) pairs it holds snapshots of. */
async function diffedPairs(db: Db): Promise<string[][]> {
  const run = await runDiff(db, diffDeps(now, { pageSize: 500 }));
  assert.equal(run.end, 'done');
  const rows = await db.selectFrom('sync_snapshots').select(['partner_id', 'crew_unique_id']).orderBy('partner_id').execute();
  return rows.map((r) => [r.partner_id, r.crew_unique_id]);
}

describeEachStore('partners whose fleets hold more vessels than a statement takes parameters', ({ store }) => {
  it('are diffed in full, then incrementally: a status change of their crew member is sent', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_big');
    await seedEndpoint(db, 'ptn_big', 'https://receiver.invalid/hook');
    await addVessels(db, VESSELS);
    await seedContractPartner(db, 'ptn_contract');
    const contract = await db
      .selectFrom('contract_vessels')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(contract.n), VESSELS + 1, 'the contract names every vessel');

    assert.deepEqual(await diffedPairs(db), [
      ['ptn_big', 'crew_1'],
      ['ptn_contract', 'crew_1'],
    ]);

    await db.updateTable('crew').set({ verification_status: 'pending' }).where('crew_unique_id', '=', 'crew_1').execute();
    await diffedPairs(db);
    const sent = await db.selectFrom('outbox_events').select('body').where('event_type', '=', 'crew.status.changed').execute();
    const bodies = sent.map((r) => JSON.parse(r.body));
    assert.deepEqual(bodies.map((b) => [b.partner_id, b.data.crew_unique_id, b.data.verification_status]).sort(), [
      ['ptn_big', 'crew_1', 'pending'],
      ['ptn_contract', 'crew_1', 'pending'],
    ]);
  });
});
