import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { addDays } from '../../src/domain/compliance/dates.ts';
import { effectiveScopes } from '../../src/domain/scopes.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import {
  complianceMatrix,
  storeMatrix,
  type ComplianceMatrixWire,
  type MatrixDeps,
} from '../../src/services/read-api/compliance-matrix.ts';
import { MatrixStates } from '../../src/services/read-cache/matrix-states.ts';
import { createReadCache } from '../../src/services/read-cache/read-cache.ts';
import type { PartnerContext } from '../../src/services/visibility/partner-context.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { baseFixture, crewArb, loadCrew } from '../support/fleet-compliance-world.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { NOW, TODAY } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

/** Writes by plain SQL from another connection (the same text on both stores), on the generated crew `c`. */
const WRITES = {
  expiry: (c: string, n: number) =>
    `update documents set expiry_date = '${addDays(TODAY, n * 17 - 30)}' where document_id in ('${c}_d${n % 20}', '${c}_d0')`,
  unverified: (c: string, n: number) =>
    `update documents set verification_status = '${n % 2 ? 'pending' : 'verified'}' where document_id = '${c}_d${n % 20}'`,
  withdrawn: (c: string, n: number) => `update documents set is_live = ${n % 2} where document_id = '${c}_d${n % 20}'`,
  moved: (c: string, n: number) =>
    `update documents set crew_unique_id = '${c}' where document_id = '${c.slice(0, -1)}${n % 3}_d${n % 20}'`,
  role: (c: string, n: number) => `update assignments set role = '${['master', 'bosun', 'cook'][n % 3]}' where crew_unique_id = '${c}'`,
  vessel: (c: string, n: number) => `update assignments set vessel_id = '${n % 2 ? 'ves_b' : 'ves_a'}' where crew_unique_id = '${c}'`,
  status: (c: string, n: number) => `update assignments set status = '${n % 2 ? 'signed_off' : 'active'}' where crew_unique_id = '${c}'`,
  consent: (c: string, n: number) =>
    n % 2
      ? `delete from consents where crew_unique_id = '${c}' and category = 'compliance'`
      : `insert into consents (crew_unique_id, partner_id, category) select '${c}', 'ptn_m', 'compliance'
       where not exists (select 1 from consents where crew_unique_id = '${c}' and partner_id = 'ptn_m' and category = 'compliance')`,
  flag: (_c: string, n: number) =>
    `update vessels set flag_state = '${n % 2 ? 'PA' : 'GB'}', vessel_type = '${n % 3 ? 'bulk_carrier' : 'oil_tanker'}' where vessel_id = 'ves_a'`,
} as const;

describeEachStore('the compliance matrix brought up to date after changes', ({ store, url }) => {
  let other: Store;
  const clock = () => NOW;
  const catalogue = new CatalogueCache(clock);
  let run = 0;

  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json', writeFixture(baseFixture())], clock);
    other = await openStore(url());
  });
  after(() => other.close());

  it('equals the matrix built afresh after writes of every kind by plain SQL from another connection', async () => {
    const db = store().db;
    const partner = (await findPartner(db, 'ptn_m'))!;
    const ctx: PartnerContext = { partner, mode: 'live', keyId: 'key_test', scopes: new Set(effectiveScopes(partner)) };
    const states = new MatrixStates<ComplianceMatrixWire>();
    const reusing: MatrixDeps = {
      catalogue,
      windowDays: 90,
      today: TODAY,
      matrix: createReadCache(db, clock, { matrices: states }).matrix,
    };
    const fresh: MatrixDeps = { catalogue, windowDays: 90, today: TODAY, matrix: storeMatrix(db) };
    const step = fc.record({ kind: fc.constantFrom(...(Object.keys(WRITES) as (keyof typeof WRITES)[])), crew: fc.nat(2), n: fc.nat(40) });
    let reusedRows = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(crewArb, { minLength: 3, maxLength: 5 }),
        fc.array(step, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 200 }),
        async (crew, steps, offset) => {
          const prefix = `m${++run}`;
          await loadCrew(
            db,
            prefix,
            crew.map((c, i) => (i < 2 ? { ...c, vessel: 'ves_a' as const, status: 'active' as const, compliance: ['ptn_m'] } : c)),
          );
          const on = addDays(TODAY, offset);
          await complianceMatrix(db, ctx, reusing, 'ves_a', on);
          for (const s of steps) {
            await sql.raw(WRITES[s.kind](`${prefix}_${s.crew}`, s.n)).execute(other.db);
            const before = states.size.rows;
            const reused = await complianceMatrix(db, ctx, reusing, 'ves_a', on);
            reusedRows += before > 0 ? 1 : 0;
            assert.deepEqual(reused, await complianceMatrix(db, ctx, fresh, 'ves_a', on), JSON.stringify(s));
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 12) },
    );
    assert.ok(reusedRows > 0, 'the kept matrices were brought up to date, not only built');
  });
});
