import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openStore } from '../../src/store/connect.ts';
import { changeHorizon } from '../../src/store/repositories/changes-repo.ts';
import { changeMarks } from '../../src/store/repositories/data-version-repo.ts';
import { seedWorld } from '../support/change-world.ts';
import { openWriter } from '../support/open-writer.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore(
  'change marks and the horizon, read in one statement',
  ({ store, url, dialect }) => {
    it('a committed write moves the marks past where they were, and nothing holds the horizon below them', async () => {
      const db = store().db;
      await seedWorld(db);
      const before = await changeMarks(db);
      await db.updateTable('crew').set({ background_check_status: 'clear' }).where('crew_unique_id', '=', 'crew_1').execute();
      const after = await changeMarks(db);
      assert.ok(after.maxSeq > before.maxSeq);
      assert.ok(after.maxTx >= before.maxTx);
      assert.ok(after.horizon > after.maxTx, 'no writer is in flight');
      assert.ok((await changeHorizon(db)) > after.maxTx);
    });

    if (dialect !== 'postgres') return;

    it('an older writer still open keeps the horizon at or below the newer change that committed first', async () => {
      const db = store().db;
      await seedWorld(db);
      const early = await openStore(url());
      try {
        const earlyWriter = await openWriter(early.db, (trx) =>
          trx.updateTable('crew').set({ background_check_status: 'review' }).where('crew_unique_id', '=', 'crew_2').execute(),
        );
        let during;
        try {
          await db.updateTable('crew').set({ background_check_status: 'review' }).where('crew_unique_id', '=', 'crew_4').execute();
          during = await changeMarks(db);
          assert.ok(
            during.horizon <= during.maxTx,
            `horizon ${during.horizon} must not pass the open writer (newest change ${during.maxTx})`,
          );
          assert.ok((await changeHorizon(db)) <= during.maxTx);
        } finally {
          // An open writer would keep the store from closing: the test would hang instead of failing.
          await earlyWriter.commit();
        }
        const settled = await changeMarks(db);
        assert.ok(settled.horizon > settled.maxTx);
        // The early writer's change took the smaller seq and tx: the marks stay; only the horizon tells.
        assert.deepEqual([settled.maxTx, settled.maxSeq], [during.maxTx, during.maxSeq]);
      } finally {
        await early.close();
      }
    });
  },
  { storePerTest: true },
);
