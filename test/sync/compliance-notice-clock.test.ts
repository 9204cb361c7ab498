import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DEFAULT_NOTICE_LEAD_DAYS } from '../../src/domain/compliance/notices.ts';
import type { Db } from '../../src/store/database.ts';
import { addDays, incrementalRun, START } from '../support/change-world.ts';
import { cliChild } from '../support/cli.ts';
import { freePort } from '../support/free-port.ts';
import { crossedOn, noticesCreated, seedNoticeWorld } from '../support/notice-world.ts';
import { describeEachStore } from '../support/stores.ts';

/*
 * A compliance notice is created once per crossing even when SVC_NOW moves back and forward again,
 * in this process or in a fresh `svc sync` (docs/webhooks.md, "Compliance notices ahead of time";
 * the guard is in src/sync/diff/notice-view.ts: a key sent stays in the snapshot until its date).
 */

const D = addDays(START, 10);
const BACK = addDays(D, -3);
const defaults = (): readonly number[] => DEFAULT_NOTICE_LEAD_DAYS;

/**
 * Baseline at START, a run at D, then `later` at D-3 and at D again: the outbox holds, after each,
 * exactly the notices crossed at D and not at the baseline, each once.
 */
async function clockMovesBack(db: Db, later: (iso: string) => Promise<void>): Promise<void> {
  await seedNoticeWorld(db);
  await incrementalRun(db, () => new Date(START));
  await incrementalRun(db, () => new Date(D));
  const atBaseline = await crossedOn(db, START.slice(0, 10), defaults);
  const expected = [...(await crossedOn(db, D.slice(0, 10), defaults))].filter((key) => !atBaseline.has(key)).sort();
  const atBack = await crossedOn(db, BACK.slice(0, 10), defaults);
  assert.ok(
    expected.some((key) => !atBack.has(key)),
    'some notice sent at D is not yet crossed at D-3, so only the guard keeps it from being sent again',
  );
  assert.deepEqual(await noticesCreated(db), expected, 'at D: the notices crossed since the baseline');
  for (const iso of [BACK, D]) {
    await later(iso);
    assert.deepEqual(await noticesCreated(db), expected, `after the run at ${iso}: none again`);
  }
}

describeEachStore(
  'a compliance notice is created once per crossing when SVC_NOW moves back',
  ({ store, url }) => {
    it('runs in this process at D, D-3 and D again create each notice once', async () => {
      const db = store().db;
      await clockMovesBack(db, async (iso) => {
        await incrementalRun(db, () => new Date(iso));
      });
    });

    it('svc sync in a fresh process with SVC_NOW at D-3 and at D creates none again', async () => {
      const db = store().db;
      // Deliveries go to a loopback port nothing listens on: refused at once, no DNS.
      const hook = `http://127.0.0.1:${await freePort()}/hook`;
      await clockMovesBack(db, async (iso) => {
        await db.updateTable('webhook_endpoints').set({ url: hook }).execute();
        const run = await cliChild(['--db', url(), 'sync'], {
          SVC_NOW: iso,
          SVC_NOW_ALLOW_WRITES: '1',
          SVC_ALLOW_INSECURE_WEBHOOKS: '1',
        });
        // 79: finished, the endpoints' deliveries failing (nothing listens).
        assert.ok(run.code === 0 || run.code === 79, `svc sync exited ${run.code}: ${run.stderr}`);
      });
    });
  },
  { storePerTest: true },
);
