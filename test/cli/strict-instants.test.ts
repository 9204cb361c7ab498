import assert from 'node:assert/strict';
import { it } from 'node:test';
import { rotateWebhookSecret } from '../../src/services/webhooks/rotate-secret.ts';
import { listDeadLetters, upsertDeadLetter } from '../../src/store/repositories/dead-letters-repo.ts';
import { findEndpointByPartner } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { cli } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, seedEvent, seedPartners, T0 } from '../support/sync-world.ts';

describeEachStore('operator times are read strictly', ({ store, url }) => {
  const svc = (...args: string[]) => cli(['--db', url(), 'admin', ...args], {}, T0);

  it('--activate-at on a day that does not exist is invalid input (65), never rolled over to the next month', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    await seedEndpoint(db, 'ptn_a', 'http://127.0.0.1:9/hooks');
    for (const given of ['2027-02-29T00:00:00Z', '2027-04-31T10:00:00+02:00', '2027-01-01T24:00:00Z', '2027-01-01']) {
      const res = await svc('rotate-secret', '--partner', 'ptn_a', '--activate-at', given);
      assert.equal(res.code, 65, `${given}: ${res.stderr}`);
      assert.match(
        res.stderr,
        /^svc: --activate-at: should be an ISO 8601 date-time with a time zone \(2026-11-22T10:00:00Z\) on a real calendar day/,
      );
    }
    assert.equal((await findEndpointByPartner(db, 'ptn_a'))?.nextSecret, null, 'no rotation stored');
    // The body field of POST …/secret-rotation is read by the same service.
    await assert.rejects(
      rotateWebhookSecret(db, 'ptn_a', { activate_at: '2027-02-29T00:00:00Z' }, { clock: () => new Date(T0) }),
      (err: any) => {
        assert.equal(err.code, 'invalid_input');
        assert.deepEqual(
          err.extra.issues.map((i: any) => i.loc),
          [['body', 'activate_at']],
        );
        return true;
      },
    );
  });

  it('a --since or --until that is not a real date or date-time is invalid input (65): a typo replays nothing', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    const { eventId } = await seedEvent(db, 'ptn_a');
    await db.updateTable('outbox_events').set({ status: 'dead' }).where('event_id', '=', eventId).execute();
    await upsertDeadLetter(db, {
      eventId,
      partnerId: 'ptn_a',
      eventType: 'crew.status.changed',
      reason: 'permanent failure: HTTP 410',
      deadAt: T0,
    });
    for (const [command, flag, given] of [
      ['replay-dead-letters', '--since', '1'],
      ['replay-dead-letters', '--since', 'may 5'],
      ['replay-dead-letters', '--until', '2026-11-22T10:00:00'],
      ['list-dead-letters', '--until', '2027-02-29'],
      ['audit', '--since', '2026-13-01T00:00:00Z'],
      ['audit', '--until', '20261122'],
    ] as const) {
      const res = await svc(command, flag, given);
      assert.equal(res.code, 65, `${command} ${flag} ${given}: ${res.stderr}`);
      assert.match(
        res.stderr,
        new RegExp(`^svc: ${flag.slice(2)} "${given}" is not an ISO-8601 date \\(YYYY-MM-DD, midnight UTC\\) or date-time`),
      );
    }
    assert.deepEqual(
      (await listDeadLetters(db, { unreplayedOnly: true })).map((d) => d.eventId),
      [eventId],
      'nothing was replayed',
    );
    const replay = await svc('replay-dead-letters', '--since', '2026-11-22', '--until', '2026-11-22T12:00:00+02:00');
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stderr, /replayed 1 dead letter/);
  });
});
