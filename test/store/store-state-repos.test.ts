import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { openStore } from '../../src/store/connect.ts';
import { deleteApiKey, revokeApiKey } from '../../src/store/repositories/api-keys-repo.ts';
import { authVersion } from '../../src/store/repositories/auth-version-repo.ts';
import { analyzeStore, analyzeTables, vacuumChangeLog } from '../../src/store/repositories/maintenance-repo.ts';
import { pingStore } from '../../src/store/repositories/store-health-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedPartners } from '../support/sync-world.ts';

const T = '2026-11-22T10:00:00.000Z';

describeEachStore('auth version, store health and planner statistics in the store', ({ store, url }) => {
  it('the auth version moves on every update or delete of a key or partner, not when a key is added', async () => {
    const db = store().db;
    assert.equal(await authVersion(db), '0', 'a fresh store');
    // An upsert may move it (on Postgres the statement-level update trigger fires for ON CONFLICT): harmless, a re-read.
    await seedPartners(db, 'ptn_a');
    const seeded = await authVersion(db);
    const issued = await issuePartnerKey(db, 'ptn_a', 'live', () => new Date(T));
    assert.equal(await authVersion(db), seeded, 'a new key does not move it: nothing cached can be stale');
    const seen = [seeded];
    await revokeApiKey(db, issued.record.keyId, T);
    seen.push(await authVersion(db));
    await db.updateTable('partners').set({ rate_limit: 7 }).where('partner_id', '=', 'ptn_a').execute();
    seen.push(await authVersion(db));
    await deleteApiKey(db, issued.record.keyId);
    seen.push(await authVersion(db));
    for (let i = 1; i < seen.length; i++) assert.ok(BigInt(seen[i]!) > BigInt(seen[i - 1]!), `moved at step ${i}: ${seen.join(' → ')}`);
    assert.equal(typeof seen[0], 'string');
  });

  it('a ping answers while the store does, and rejects once it is closed', async () => {
    await pingStore(store().db);
    const other = await openStore(url());
    await pingStore(other.db);
    await other.close();
    await assert.rejects(pingStore(other.db), /driver has already been destroyed/);
  });

  it('refreshing the planner statistics leaves the data as it was', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a', 'ptn_b');
    await analyzeStore(db);
    await analyzeTables(db, ['sync_snapshots', 'changes']);
    assert.deepEqual(
      (await db.selectFrom('partners').select('partner_id').orderBy('partner_id').execute()).map((r) => r.partner_id),
      ['ptn_a', 'ptn_b'],
    );
  });

  it('vacuuming the emptied change log gives its space back on Postgres (no dead rows left to scan)', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a', 'ptn_b');
    for (let i = 0; i < 200; i++) await db.updateTable('partners').set({ rate_limit: i }).where('partner_id', '=', 'ptn_a').execute();
    assert.ok(
      Number(
        (
          await db
            .selectFrom('changes')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ) > 0,
    );
    await db.deleteFrom('changes').execute();
    await vacuumChangeLog(db);
    assert.equal((await db.selectFrom('changes').selectAll().execute()).length, 0);
    if (url().startsWith('postgres')) {
      const { rows } = await sql<{ bytes: string }>`select pg_relation_size('changes') as bytes`.execute(db);
      assert.equal(Number(rows[0]!.bytes), 0, 'every page of deleted rows was vacuumed away');
    }
  });
});
