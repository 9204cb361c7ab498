import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { migrateToJustBefore } from '../support/earlier-schema.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';
import { insertOutboxRows, T0 } from '../support/sync-world.ts';

/*
 * Migration 1310-outbox-payload-scope: events written before it were built with no record of the
 * scope their payload needs. A compliance summary whose next_expiry_date is the expiry of one of
 * its crew member's medical-class documents gets crew:medical:read; nothing else is marked.
 */
describeEachStore(
  'outbox events written before payload scopes were recorded',
  ({ store }) => {
    it('a compliance summary dated by a medical document is marked as needing crew:medical:read', async () => {
      const db = store().db;
      await migrateToJustBefore(db, '1310-outbox-payload-scope');
      // crew_1 holds a medical fitness certificate expiring 2027-06-01 (and an older one, 2025-06-01).
      // Without files: the store at this schema has no file_chunks yet (migration 1400), where a load writes them.
      const fixture = miniFixture();
      for (const c of fixture.crew) delete c.photo;
      for (const d of fixture.documents) delete d.file;
      await loadFixtures(db, [writeFixture(fixture)], () => new Date(T0));
      const event = (eventId: string, eventType: string, data: Record<string, unknown>) => ({
        event_id: eventId,
        partner_id: 'ptn_a',
        event_type: eventType,
        crew_unique_id: 'crew_1',
        occurred_at: T0,
        body: JSON.stringify({ schema_version: 1, event_id: eventId, event_type: eventType, occurred_at: T0, partner_id: 'ptn_a', data }),
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: T0,
        locked_by: null,
        locked_until: null,
        created_at: T0,
        delivered_at: null,
      });
      const summary = (next: string | null) => ({
        crew_unique_id: 'crew_1',
        vessel_id: 'ves_a',
        overall_status: 'at_risk',
        next_expiry_date: next,
      });
      await insertOutboxRows(db, [
        event('evt_medical', 'crew.compliance.changed', summary('2027-06-01')),
        event('evt_old_medical', 'crew.compliance.changed', summary('2025-06-01')),
        event('evt_other', 'crew.compliance.changed', summary('2030-01-01')),
        event('evt_none', 'crew.compliance.changed', summary(null)),
        event('evt_status', 'crew.status.changed', { crew_unique_id: 'crew_1', next_expiry_date: '2027-06-01' }),
      ]);
      await migrateToLatest(db);
      const rows = await db.selectFrom('outbox_events').select(['event_id', 'payload_scope']).orderBy('event_id').execute();
      assert.deepEqual(
        rows.map((r) => [r.event_id, r.payload_scope]),
        [
          ['evt_medical', 'crew:medical:read'],
          ['evt_none', null],
          ['evt_old_medical', 'crew:medical:read'],
          ['evt_other', null],
          ['evt_status', null],
        ],
      );
    });
  },
  { migrate: false },
);
