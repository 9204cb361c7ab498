import assert from 'node:assert/strict';
import { it } from 'node:test';
import { syncSummaryJson } from '../../src/cli/sync-json.ts';
import { AUDIT_PRUNED_AT } from '../../src/services/audit-retention.ts';
import type { Db } from '../../src/store/database.ts';
import { auditRowText, insertAuditRows } from '../../src/store/repositories/audit-repo.ts';
import { findSetting } from '../../src/store/repositories/settings-repo.ts';
import { runSync, type SyncOptions } from '../../src/sync/run-sync.ts';
import { auditEntry } from '../support/audit-entries.ts';
import { describeEachStore } from '../support/stores.ts';
import { testClock, testDeps, type TestClock } from '../support/sync-world.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RETENTION_DAYS = 30;

/** `count` audit rows recorded `ageMs` before the clock's instant, their request ids starting with `prefix`. */
async function seedAudit(db: Db, tc: TestClock, prefix: string, count: number, ageMs: number): Promise<void> {
  const at = new Date(tc.clock().getTime() - ageMs).toISOString();
  const rows = Array.from({ length: count }, (_, i) => auditRowText(auditEntry(`${prefix}_${i}`, at)));
  await insertAuditRows(db, rows);
}

async function requestIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('audit_log').select('request_id').execute();
  return rows.map((r) => r.request_id).sort();
}

describeEachStore('svc sync prunes the audit log once a day', ({ store }) => {
  it('deletes rows past SVC_AUDIT_RETENTION_DAYS in batches, keeps newer ones, and prunes again only the next UTC day', async () => {
    const db = store().db;
    const tc = testClock();
    const sync = (options: SyncOptions = {}) => runSync(db, testDeps(tc), { auditRetentionDays: RETENTION_DAYS, ...options });
    // More old rows than one batch (1000), so the prune takes several transactions.
    await seedAudit(db, tc, 'old', 2500, 40 * DAY);
    await seedAudit(db, tc, 'edge', 1, 29 * DAY + 12 * HOUR);
    await seedAudit(db, tc, 'new', 3, 10 * DAY);
    const kept = ['edge_0', 'new_0', 'new_1', 'new_2'];

    for (const options of [{ dryRun: true }, { deliverOnly: true }]) {
      const summary = await sync(options);
      assert.equal(summary.auditPruned, 0, `${JSON.stringify(options)} does not prune`);
      assert.equal((await requestIds(db)).length, 2504);
    }
    assert.equal(await findSetting(db, AUDIT_PRUNED_AT), undefined);

    const first = await sync();
    assert.equal(first.auditPruned, 2500, 'every row older than the retention went');
    const totals = syncSummaryJson(first, 0).totals as Record<string, unknown>;
    assert.equal(totals.audit_pruned, 2500, '--json counts them');
    assert.deepEqual(await requestIds(db), kept, 'rows within the retention stay');
    assert.equal(await findSetting(db, AUDIT_PRUNED_AT), tc.iso(), 'the prune instant is recorded');

    // Later the same UTC day: rows past the retention wait for tomorrow.
    await seedAudit(db, tc, 'late', 2, 40 * DAY);
    tc.advance(HOUR);
    const sameDay = await sync();
    assert.equal(sameDay.auditPruned, 0, 'a second run the same day does not prune');
    assert.equal((await requestIds(db)).length, 6);

    // The next UTC day: the boundary has moved past the edge row too.
    tc.advance(DAY);
    const nextDay = await sync();
    assert.equal(nextDay.auditPruned, 3, 'the next day prunes the late rows and the row the boundary passed');
    assert.deepEqual(await requestIds(db), ['new_0', 'new_1', 'new_2']);
    assert.equal(await findSetting(db, AUDIT_PRUNED_AT), tc.iso());
  });

  it('keeps every row when the retention is 0', async () => {
    const db = store().db;
    const tc = testClock();
    tc.advance(10 * DAY);
    await db.deleteFrom('audit_log').execute();
    await db.deleteFrom('settings').where('name', '=', AUDIT_PRUNED_AT).execute();
    await seedAudit(db, tc, 'ancient', 5, 3000 * DAY);
    const summary = await runSync(db, testDeps(tc), { auditRetentionDays: 0 });
    assert.equal(summary.auditPruned, 0);
    assert.equal((await requestIds(db)).length, 5);
  });
});
