import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../../src/store/connect.ts';
import {
  changeHorizon,
  fleetWideChanges,
  lastChange,
  pruneChanges,
  readChanges,
  settledReadBound,
} from '../../src/store/repositories/changes-repo.ts';
import type { Change } from '../../src/domain/changes.ts';
import { changeMarks } from '../../src/store/repositories/data-version-repo.ts';
import { saveSyncCursor } from '../../src/store/repositories/sync-state-repo.ts';
import { eventually } from '../support/probe.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedPartnerRows } from '../support/sync-world.ts';

describeEachStore('the change log in the store', ({ store, url, dialect }) => {
  beforeEach(async () => {
    const db = store().db;
    for (const t of ['webhook_endpoints', 'partners', 'changes'] as const) await db.deleteFrom(t).execute();
    await db.deleteFrom('settings').where('name', '=', 'sync.cursor').execute();
  });
  const all = async () => readChanges(store().db, null, await changeHorizon(store().db), 1000);

  it('nothing recorded: no changes, no last position, marks at zero', async () => {
    const db = store().db;
    assert.deepEqual(await all(), []);
    assert.equal(await lastChange(db, await changeHorizon(db)), null);
    const { horizon, ...marks } = await changeMarks(db);
    assert.deepEqual(marks, { maxSeq: 0, maxTx: 0, syncCursor: null });
    assert.ok(horizon > 0);
  });

  it('changes come in (tx, seq) order, a page at a time after a position, only below the horizon', async () => {
    const db = store().db;
    for (const p of ['ptn_1', 'ptn_2', 'ptn_3', 'ptn_4']) await seedPartnerRows(db, p);
    const every = await all();
    assert.deepEqual(
      every.map((c) => [c.table, c.key, c.partnerId, c.crewUniqueId]),
      ['ptn_1', 'ptn_2', 'ptn_3', 'ptn_4'].map((p) => ['partners', p, p, null]),
    );
    const horizon = await changeHorizon(db);
    const first = await readChanges(db, null, horizon, 2);
    assert.deepEqual(first, every.slice(0, 2));
    assert.deepEqual(await readChanges(db, first[1]!, horizon, 10), every.slice(2));
    assert.deepEqual(await readChanges(db, every[3]!, horizon, 10), []);
    assert.deepEqual(await lastChange(db, horizon), { tx: every[3]!.tx, seq: every[3]!.seq });
    // A horizon at a change's transaction: that change and every later one are not final yet.
    assert.deepEqual(
      await readChanges(db, null, every[2]!.tx, 10),
      every.filter((c) => c.tx < every[2]!.tx),
    );
    assert.deepEqual(await lastChange(db, every[0]!.tx), null);
    const marks = await changeMarks(db);
    assert.deepEqual([marks.maxSeq, marks.maxTx], [every[3]!.seq, every[3]!.tx]);
    // The horizon is the server's: a transaction of another database (another test file's) that was
    // in flight when the snapshot was taken and had ended when pg_stat_activity was read holds it
    // back for that read. Nothing of this database is in flight, so it passes every change soon.
    await eventually(
      'nothing in flight: the horizon is past every committed change',
      async () => (await changeMarks(db)).horizon > marks.maxTx,
    );
  });

  it('fleet-wide changes: distinct table and partner of the tables named, after a position', async () => {
    const db = store().db;
    await seedPartnerRows(db, 'ptn_1', 'ptn_2');
    const start = (await all()).at(-1)!;
    await db.updateTable('partners').set({ tier: 'basic' }).execute();
    await db.updateTable('partners').set({ tier: 'recruiter' }).where('partner_id', '=', 'ptn_1').execute();
    await seedEndpoint(db, 'ptn_2', 'https://hooks.example.com/x');
    const horizon = await changeHorizon(db);
    const wide = await fleetWideChanges(db, start, horizon, ['partners']);
    assert.deepEqual(wide.map((change) => [change.table, change.partnerId]).sort(), [
      ['partners', 'ptn_1'],
      ['partners', 'ptn_2'],
    ]);
    const both = await fleetWideChanges(db, start, horizon, ['partners', 'webhook_endpoints']);
    assert.equal(both.length, 3);
    assert.equal((await fleetWideChanges(db, null, horizon, ['partners'])).length, 2, 'from the start: the inserts too, still distinct');
    assert.deepEqual(await fleetWideChanges(db, start, horizon, ['vessels']), []);
  });

  it('pruning forgets changes up to and including the position; the sync cursor shows in the marks', async () => {
    const db = store().db;
    await seedPartnerRows(db, 'ptn_1', 'ptn_2', 'ptn_3');
    const every = await all();
    await pruneChanges(db, every[1]!);
    assert.deepEqual(await all(), every.slice(2));
    // From where the reader stood before: only the range after it goes.
    await seedPartnerRows(db, 'ptn_4', 'ptn_5');
    const more = await all();
    assert.ok(more.length >= 3);
    await pruneChanges(db, more[2]!, more[0]);
    assert.deepEqual(await all(), [more[0], ...more.slice(3)]);
    const cursor = { position: { tx: every[1]!.tx, seq: every[1]!.seq }, windowDays: 30, today: '2026-11-22' };
    await saveSyncCursor(db, cursor);
    assert.deepEqual(JSON.parse((await changeMarks(db)).syncCursor!), cursor);
  });

  if (dialect === 'postgres') {
    it('a transaction still open holds the horizon: changes committed after it are not read past it', async () => {
      const db = store().db;
      const other = await openStore(url());
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let openTx!: (tx: number) => void;
      const started = new Promise<number>((resolve) => (openTx = resolve));
      const writer = other.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('employers')
          .values({ employer_id: 'emp_open', name: 'Open' })
          .onConflict((oc) => oc.doNothing())
          .execute();
        await trx
          .insertInto('partners')
          .values({
            partner_id: 'ptn_open',
            name: 'Open',
            kind: 'customer',
            employer_id: 'emp_open',
            tier: 'basic',
            scope_overrides: null,
            upgraded: 0,
            contract_scopes: null,
            rate_limit: null,
            created_at: '2026-11-22T10:00:00.000Z',
          })
          .execute();
        const { rows } = await sql<{ tx: string }>`select pg_current_xact_id()::text as tx`.execute(trx);
        openTx(Number(rows[0]!.tx));
        await held;
      });
      let tx: number;
      try {
        tx = await started;
        await seedPartnerRows(db, 'ptn_later');
        const horizon = await changeHorizon(db);
        assert.ok(horizon <= tx, `horizon ${horizon} is not past the open transaction ${tx}`);
        assert.ok((await changeMarks(db)).horizon <= tx, 'the marks carry the same horizon');
        const seen: Change[] = await readChanges(db, null, horizon, 100);
        assert.ok(!seen.some((c) => c.key === 'ptn_later'), 'the later commit waits behind the open transaction');
        const gaveUp = await settledReadBound(db, 60);
        assert.ok(gaveUp.horizon <= tx, 'waiting gives up after its time and still holds the change back');
        assert.ok(gaveUp.last === null || gaveUp.last.tx < tx, 'and reads no change past the open transaction');
      } finally {
        release();
        await writer;
        await other.close();
      }
      const after = await all();
      assert.deepEqual(after.map((c) => c.key).sort(), ['ptn_later', 'ptn_open']);
      const settled = await settledReadBound(db, 60);
      assert.ok(settled.horizon > tx, 'nothing in flight: the horizon is past the transaction at once');
      const newest = after.at(-1)!;
      assert.equal(newest.key, 'ptn_later');
      assert.deepEqual(settled.last, { tx: newest.tx, seq: newest.seq }, 'and the run may read up to the newest change');
    });
  } else {
    it('SQLite serializes writers: the horizon never holds a change back', async () => {
      assert.equal(await changeHorizon(store().db), Number.MAX_SAFE_INTEGER);
      assert.deepEqual(await settledReadBound(store().db, 1000), { horizon: Number.MAX_SAFE_INTEGER, last: null });
    });
  }
});
