import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cli } from '../support/cli.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent, T0 } from '../support/sync-world.ts';

describeEachStore('svc sync records each run in the store, for monitoring', ({ store, url }) => {
  const world = receiverWorld(store);
  // The CLI's injected clock is the real one; SVC_NOW moves the business clock a month on.
  const sync = (...flags: string[]) =>
    cli(
      ['--db', url(), 'sync', ...flags],
      {
        SVC_ALLOW_INSECURE_WEBHOOKS: '1',
        SVC_NOW: '2026-12-22T10:00:00Z',
        SVC_NOW_ALLOW_WRITES: '1',
      },
      T0,
    );
  const runs = () => store().db.selectFrom('sync_runs').selectAll().orderBy('started_at').orderBy('run_id').execute();

  it('start, end, events created, delivered and dead-lettered, and the outcome; the real clock under SVC_NOW; a dry run records nothing', async () => {
    const db = store().db;
    await db.deleteFrom('sync_runs').execute();
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const gone = await seedEvent(db, 'ptn_a');
    await seedEvent(db, 'ptn_a');
    // A 422 is permanent: that event is dead-lettered at once.
    world.reply = (_n, r) => ({ status: r.eventId === gone.eventId ? 422 : 204 });
    assert.equal((await sync('--dry-run')).code, 0);
    assert.deepEqual(await runs(), [], 'a dry run writes nothing');

    const first = await sync();
    assert.notEqual(first.code, 70, first.stderr);
    const [run] = await runs();
    assert.ok(run);
    assert.equal(run.kind, 'sync');
    assert.equal(run.outcome, 'delivery_failures');
    assert.deepEqual([Number(run.delivered), Number(run.dead_lettered), Number(run.delivery_errors)], [1, 1, 0]);
    assert.deepEqual([run.started_at, run.finished_at], [T0, T0], 'the real time, which monitoring compares with its own clock');

    await seedEvent(db, 'ptn_a');
    assert.notEqual((await sync('--deliver-only')).code, 70);
    const second = (await runs()).find((r) => r.kind === 'deliver_only');
    assert.deepEqual([second?.outcome, Number(second?.delivered)], ['ok', 1]);
  });
});
