import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { cli } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';
import { incrementalRun, seedWorld, START } from '../support/change-world.ts';

const wouldCreate = (stdout: string) => Number(/^would create (\d+) event\(s\)$/m.exec(stdout)?.[1]);

describeEachStore(
  'svc sync --full and SVC_NOW',
  ({ store, url }) => {
    const now = () => new Date(START);

    // The world, and a first run that takes every partner's baseline: each test starts from a synced store of its own.
    beforeEach(async () => {
      await seedWorld(store().db);
      await incrementalRun(store().db, now);
    });

    it('--dry-run and --full --dry-run print the same "would create N event(s)" and write nothing', async () => {
      const db = store().db;
      await db
        .updateTable('crew')
        .set({ profile_updated_at: '2026-11-22T11:00:00.000Z' })
        .where('crew_unique_id', 'in', ['crew_1', 'crew_2'])
        .execute();
      const dry = await cli(['--db', url(), 'sync', '--dry-run']);
      const full = await cli(['--db', url(), 'sync', '--full', '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.equal(full.code, 0, full.stderr);
      assert.ok(wouldCreate(dry.stdout) >= 2, dry.stdout);
      assert.equal(wouldCreate(full.stdout), wouldCreate(dry.stdout), `${dry.stdout}\n${full.stdout}`);
      assert.equal((await db.selectFrom('outbox_events').select('event_id').execute()).length, 0);
      assert.equal((await incrementalRun(db, now)).events.length, wouldCreate(dry.stdout));
      const again = await cli(['--db', url(), 'sync', '--full', '--dry-run']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(wouldCreate(again.stdout), 0, again.stdout);
    });

    it('--full reconciles what no captured change explains (snapshots lost): the incremental run does not see it', async () => {
      const db = store().db;
      await db.deleteFrom('sync_snapshots').where('crew_unique_id', '=', 'crew_1').execute();
      assert.equal(wouldCreate((await cli(['--db', url(), 'sync', '--dry-run'])).stdout), 0);
      const full = await cli(['--db', url(), 'sync', '--full', '--dry-run']);
      assert.ok(wouldCreate(full.stdout) > 0);
      assert.match(full.stdout, /crew_1/);
      assert.equal((await incrementalRun(db, now, { full: true })).events.length, wouldCreate(full.stdout));
    });

    it('SVC_NOW moves the day sync computes for: documents expire, compliance changes', async () => {
      const later = { SVC_NOW: '2027-06-01T08:00:00Z' };
      const today = await cli(['--db', url(), 'sync', '--dry-run']);
      const then = await cli(['--db', url(), 'sync', '--dry-run'], later);
      assert.equal(wouldCreate(today.stdout), 0);
      assert.ok(wouldCreate(then.stdout) > 0, then.stdout);
      assert.match(then.stdout, /crew\.document\.updated/);
    });

    it('SVC_NOW fixes the day of svc compliance check', async () => {
      const res = await cli(['--db', url(), 'compliance', 'check', 'crew_1'], { SVC_NOW: '2027-06-01T08:00:00+02:00' });
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /as of 2027-06-01T06:00:00/);
    });

    it('an invalid SVC_NOW is refused at start, naming the setting, by every command that uses the clock', async () => {
      for (const argv of [
        ['sync', '--dry-run'],
        ['compliance', 'check', 'crew_1'],
        ['serve', '--port', '0'],
      ]) {
        for (const bad of ['tomorrow', '2026-02-30T10:00:00Z', '2026-11-22']) {
          const res = await cli(['--db', url(), ...argv], { SVC_NOW: bad });
          assert.equal(res.code, 64, `${argv[0]} ${bad}: ${res.stderr}`);
          assert.match(res.stderr, /SVC_NOW/);
        }
      }
    });
  },
  { storePerTest: true },
);

it('SVC_NOW accepts ISO 8601 date-times with an offset and is unset by default', () => {
  assert.equal(loadConfig({}).now, undefined);
  for (const ok of ['2026-11-22T10:00:00Z', '2026-11-22T10:00Z', '2026-11-22T10:00:00.123+05:30'])
    assert.equal(loadConfig({ SVC_NOW: ok }).now, ok);
});
