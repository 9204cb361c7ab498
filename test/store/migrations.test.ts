import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openStore } from '../../src/store/connect.ts';
import { assertMigrated, migrateToLatest, migrationStatus } from '../../src/store/migrator.ts';
import { migrations } from '../../src/store/migrations/index.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore(
  'migrations on an empty store',
  ({ store }) => {
    it('a store that was never migrated is refused with a hint to run svc db migrate', async () => {
      await assert.rejects(
        assertMigrated(store().db),
        (err: any) => err.code === 'store_not_migrated' && /svc db migrate/.test(err.message),
      );
    });

    it('migrate applies every migration, and a second run applies none', async () => {
      const first = await migrateToLatest(store().db);
      assert.deepEqual(
        first.map((r) => [r.migrationName, r.status]),
        Object.keys(migrations).map((n) => [n, 'Success']),
      );
      assert.deepEqual(await migrateToLatest(store().db), []);
      const status = await migrationStatus(store().db);
      assert.ok(status.every((m) => m.executedAt instanceof Date));
      await assertMigrated(store().db);
    });

    it('the schema holds every table the service uses', async () => {
      await migrateToLatest(store().db);
      const tables = (await store().db.introspection.getTables()).map((t) => t.name);
      for (const t of [
        'employers',
        'partners',
        'contract_vessels',
        'vessels',
        'crew',
        'assignments',
        'consents',
        'files',
        'documents',
        'requirement_catalogue',
        'compliance_results',
        'api_keys',
        'webhook_endpoints',
        'outbox_events',
        'delivery_attempts',
        'dead_letters',
        'sync_snapshots',
        'sync_state',
        'leases',
        'audit_log',
        'settings',
      ]) {
        assert.ok(tables.includes(t), `missing table ${t}`);
      }
    });
  },
  { migrate: false },
);

it('a store URL that names neither dialect is refused clearly', async () => {
  await assert.rejects(
    openStore('mysql://x'),
    (err: any) => err.code === 'invalid_setting' && /sqlite:PATH nor postgres/.test(err.message),
  );
});

it('an unreachable Postgres is reported as store_unavailable with the password masked', async () => {
  await assert.rejects(
    openStore('postgres://u:secret@127.0.0.1:1/db'),
    (err: any) => err.code === 'store_unavailable' && err.message.includes('u:***@') && !err.message.includes('secret'),
  );
});
