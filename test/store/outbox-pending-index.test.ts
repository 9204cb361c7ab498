import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../../src/store/connect.ts';
import { claimDueEvents, countDueEvents } from '../../src/store/repositories/outbox-repo.ts';
import { queryPlan, type SentStatement } from '../support/query-plan.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent, seedPartners, T0 } from '../support/sync-world.ts';

describeEachStore('the due count and the claims beside many finished events', ({ store, url, dialect }) => {
  it('read through an index of pending events, not through every event of each partner', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a', 'ptn_b');
    const kept: string[] = [];
    for (const partnerId of ['ptn_a', 'ptn_b']) {
      await seedEndpoint(db, partnerId, 'https://receiver.invalid/hook');
      for (let i = 0; i < 200; i++) {
        const { eventId } = await seedEvent(db, partnerId);
        if (i % 40 === 0) kept.push(eventId);
      }
    }
    // All but 5 of each partner's events finished, as the retention keeps them.
    await db.updateTable('outbox_events').set({ status: 'delivered', delivered_at: T0 }).where('event_id', 'not in', kept).execute();
    await sql`analyze`.execute(db);

    const sent: SentStatement[] = [];
    const logged = await openStore(url(), {
      log: (e) => {
        if (e.level === 'query' && e.query.sql.includes('outbox_events')) sent.push({ sql: e.query.sql, parameters: e.query.parameters });
      },
    });
    try {
      assert.equal(await countDueEvents(logged.db, T0), 10);
      const claimed = await claimDueEvents(logged.db, { partnerId: 'ptn_a', runId: 'run_1', now: T0, lockedUntil: T0, limit: 100 });
      assert.deepEqual(
        claimed.map((e) => e.eventId),
        kept.filter((id) => id.endsWith('ptn_a')).sort(),
      );
    } finally {
      await logged.close();
    }
    assert.equal(sent.length, 2);
    for (const statement of sent) {
      const plan = await queryPlan(db, dialect, statement);
      assert.match(plan, /outbox_(pending|due)\b/, `${statement.sql}\n${plan}`);
      assert.doesNotMatch(plan, /outbox_partner_(sequence|feed)/, `${statement.sql}\n${plan}`);
    }
  });
});
