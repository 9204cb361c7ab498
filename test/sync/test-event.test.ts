import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { issueOperatorKey } from '../../src/services/api-keys.ts';
import { listDeadLetters } from '../../src/store/repositories/dead-letters-repo.ts';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { takeSequences } from '../../src/store/repositories/event-sequences-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { findEndpointByPartner } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { webhookTester } from '../../src/sync/test-event.ts';
import { expectError } from '../support/expect.ts';
import { startTestApi } from '../support/http.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEndpoint, testClock, testDeps } from '../support/sync-world.ts';

/** A loopback port nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describeEachStore('a test event: one signed delivery to the endpoint, recorded like any attempt', ({ store }) => {
  const world = receiverWorld(store);

  it('is signed as deliveries are, carries no crew data, is stored with its attempt, and takes no sequence number', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const tc = testClock();
    const sequenceBefore = await takeSequences(db, 'ptn_a', 1);
    const sent = await webhookTester(db, testDeps(tc))('ptn_a');
    assert.equal(sent.statusCode, 204);
    assert.equal(sent.delivered, true);
    assert.equal(sent.url, world.rx.url);
    const [got] = world.rx.received;
    assert.ok(got?.signatureValid, 'the receiver verified the signature with the shared secret');
    assert.equal(got.eventType, 'svc.test');
    assert.equal(got.eventId, sent.eventId);
    const body = JSON.parse(got.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['schema_version', 'event_id', 'event_type', 'occurred_at', 'partner_id', 'data']);
    assert.deepEqual(Object.keys(body.data as object), ['message']);
    assert.doesNotMatch(got.body, /crew_/);

    const [attempt] = await listDeliveryAttempts(db, { eventId: sent.eventId });
    assert.deepEqual([attempt?.attemptNo, attempt?.statusCode, attempt?.outcome, attempt?.url], [1, 204, 'delivered', world.rx.url]);
    assert.equal((await findOutboxEvent(db, sent.eventId))?.status, 'delivered');
    assert.equal(await takeSequences(db, 'ptn_a', 1), sequenceBefore + 1, 'the test event took no number');
    await deliverDue(db, testDeps(tc), 'run_after');
    assert.equal(world.rx.received.length, 1, 'never sent again');
  });

  it('an endpoint that fails it: stored dead, never retried, no dead letter, health untouched; unknown partner or no endpoint refused', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    world.reply = () => ({ status: 503 });
    const tc = testClock();
    const sent = await webhookTester(db, testDeps(tc))('ptn_a');
    assert.deepEqual([sent.statusCode, sent.delivered, sent.errorClass], [503, false, null]);
    assert.equal((await findOutboxEvent(db, sent.eventId))?.status, 'dead');
    assert.deepEqual(await listDeadLetters(db), []);
    assert.equal((await findEndpointByPartner(db, 'ptn_a'))?.health?.consecutiveFailures, 0);
    tc.advance(3_600_000);
    await deliverDue(db, testDeps(tc), 'run_after');
    assert.equal(world.rx.received.length, 1);

    await db
      .updateTable('webhook_endpoints')
      .set({ url: `http://127.0.0.1:${await closedPort()}/closed` })
      .execute();
    const refused = await webhookTester(db, testDeps(tc))('ptn_a');
    assert.deepEqual([refused.statusCode, refused.errorClass], [null, 'connection_refused']);

    await assert.rejects(webhookTester(db, testDeps(tc))('ptn_nobody'), { code: 'partner_not_found' });
    await db.deleteFrom('webhook_endpoints').execute();
    await assert.rejects(webhookTester(db, testDeps(tc))('ptn_a'), { code: 'not_found' });
  });

  it('the operator route sends it and answers status and time; a partner key is refused', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const tc = testClock();
    const app = createApp({
      db,
      config: loadConfig({}, {}),
      clock: tc.clock,
      logger: pino({ level: 'silent' }),
      webhookTester: webhookTester(db, testDeps(tc)),
    });
    const api = await startTestApi(app);
    try {
      const operator = (await issueOperatorKey(db, tc.clock)).key;
      const res = await api.request('POST', '/api/v2/admin/partners/ptn_a/webhook-endpoints/test-event', { key: operator });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.json.status_code, 204);
      assert.equal(res.json.delivered, true);
      assert.ok(Number.isInteger(res.json.duration_ms));
      assert.equal(world.rx.received[0]?.eventId, res.json.event_id);
      expectError(
        await api.request('POST', '/api/v2/admin/partners/ptn_none/webhook-endpoints/test-event', { key: operator }),
        404,
        'partner_not_found',
      );
    } finally {
      await api.close();
    }
  });
});
