import assert from 'node:assert/strict';
import { it } from 'node:test';
import { registerWebhookEndpoint } from '../../src/services/webhooks/endpoints.ts';
import { listDeadLetters } from '../../src/store/repositories/dead-letters-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { findEndpointByPartner } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { SECRET, seedEndpoint, seedEvent, testClock, testDeps } from '../support/sync-world.ts';

describeEachStore('an endpoint that answers 410 Gone', ({ store }) => {
  const world = receiverWorld(store);

  it('dead-letters that event, disables the endpoint with the reason; the others wait and are delivered once it is re-enabled', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await seedEvent(db, 'ptn_a')).eventId);
    const tc = testClock();
    world.reply = () => ({ status: 410 });

    const report = await deliverDue(db, testDeps(tc), 'run_gone');
    const gone = world.rx.received.map((r) => r.eventId);
    // Attempts in flight when the first 410 was recorded may also meet it: at most the endpoint's 2 slots.
    assert.ok(gone.length >= 1 && gone.length <= 2, `${gone.length} requests`);
    assert.equal(new Set(gone).size, gone.length, 'a 410 is not retried');
    const endpoint = (await findEndpointByPartner(db, 'ptn_a'))!;
    assert.equal(endpoint.status, 'disabled');
    assert.match(endpoint.health?.disabledReason ?? '', new RegExp(`^the endpoint answered 410 Gone to (${gone.join('|')}) at `));
    assert.equal(endpoint.health?.disabledAt, tc.iso());
    assert.deepEqual(
      (await listDeadLetters(db)).map((d) => [d.eventId, d.reason]).sort(),
      gone.map((id) => [id, 'permanent failure: HTTP 410']).sort(),
      'each event answered 410 is dead-lettered as for a permanent 4xx',
    );
    const waiting = ids.filter((id) => !gone.includes(id));
    for (const id of waiting) assert.equal((await findOutboxEvent(db, id))?.status, 'pending', `${id} waits in the outbox`);
    assert.equal(report.totals.delivered, 0);

    // Disabled: later runs send nothing.
    tc.advance(3_600_000);
    await deliverDue(db, testDeps(tc), 'run_after');
    assert.equal(world.rx.received.length, gone.length);

    world.reply = () => ({ status: 204 });
    const { endpoint: again } = await registerWebhookEndpoint(
      db,
      'ptn_a',
      { url: world.rx.url, subscribed_events: ['crew.status.changed'], secret: SECRET, status: 'active' },
      { clock: tc.clock, allowInsecure: true, resolve: () => Promise.resolve(['127.0.0.1']) },
    );
    assert.equal(again.health?.disabledReason, null);
    await deliverDue(db, testDeps(tc), 'run_enabled');
    for (const id of waiting) assert.equal((await findOutboxEvent(db, id))?.status, 'delivered', `${id} delivered after re-enabling`);
    for (const id of gone) assert.equal((await findOutboxEvent(db, id))?.status, 'dead', `${id} stays dead-lettered, for a replay`);
  });

  it('a 404 dead-letters its event and leaves the endpoint active; a 429 neither disables nor dead-letters', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const { eventId } = await seedEvent(db, 'ptn_a');
    world.reply = () => ({ status: 404 });
    await deliverDue(db, testDeps(testClock()), 'run_404');
    assert.equal((await findOutboxEvent(db, eventId))?.status, 'dead');
    assert.equal((await findEndpointByPartner(db, 'ptn_a'))?.status, 'active');

    const second = await seedEvent(db, 'ptn_a');
    world.reply = () => ({ status: 429, headers: { 'Retry-After': '120' } });
    await deliverDue(db, testDeps(testClock()), 'run_429');
    assert.equal((await findOutboxEvent(db, second.eventId))?.status, 'pending');
    assert.equal((await findEndpointByPartner(db, 'ptn_a'))?.status, 'active');
  });
});
