import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { it } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { cli } from '../support/cli.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { deliverAroundSwitch } from '../support/rotation-switch.ts';
import type { Received } from '../support/receiver.ts';
import { describeEachStore } from '../support/stores.ts';
import { SECRET, seedEndpoint, seedEvent, T0, testClock, testDeps } from '../support/sync-world.ts';

/** Secrets as a Standard Webhooks tool makes them: `whsec_` + standard base64 of random-looking bytes. */
const S1 = `whsec_${Buffer.alloc(32, 0xa5).toString('base64')}`;
const S2 = `whsec_${Buffer.alloc(24, 0x3c).toString('base64')}`;

/** The contract's scheme, computed here independently of the code under test. */
function contractValid(secret: string, r: Received): boolean {
  return (
    r.headers['x-service-signature'] ===
    `v1=${createHmac('sha256', secret).update(`${r.headers['x-service-timestamp']}.${r.body}`).digest('hex')}`
  );
}

/** What a receiver written with the standardwebhooks package does with one request. */
function standardVerifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers);
    return true;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return false;
    throw err;
  }
}

// The standard library compares webhook-timestamp with the real clock (5 minutes either way), so the signing clock is the real one.
const realWall = { wallClock: () => new Date() };

describeEachStore("Standard Webhooks headers beside the contract's", ({ store, url }) => {
  const world = receiverWorld(store);
  const svc = (args: string[], now = T0) => cli(['--db', url(), ...args], { SVC_ALLOW_INSECURE_WEBHOOKS: '1' }, now);

  it('an endpoint registered with a generated secret: the standardwebhooks package verifies each delivery, and so does the contract scheme', async () => {
    const reg = await svc(['admin', 'register-webhook', '--partner', 'ptn_a', '--url', world.rx.url, '--events', 'crew.status.changed']);
    assert.equal(reg.code, 0, reg.stderr);
    const secret: string = JSON.parse(reg.stdout).secret;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/, '32 bytes, standard base64');
    const { eventId, body } = await seedEvent(store().db, 'ptn_a');
    await deliverDue(store().db, testDeps(testClock(), realWall), 'run_1');
    const [got] = world.rx.received;
    assert.ok(got);
    assert.deepEqual(new Webhook(secret).verify(got.body, got.headers), JSON.parse(body), 'the library hands back the event');
    assert.ok(contractValid(secret, got), 'X-Service-Signature keyed with the whole secret string, unchanged');
    assert.equal(got.headers['webhook-id'], eventId);
    assert.equal(got.headers['webhook-timestamp'], got.headers['x-service-timestamp']);
    assert.equal(got.headers['x-service-event-id'], eventId);
    assert.equal(standardVerifies(secret, { ...got, body: got.body.replace('verified', 'rejected') }), false, 'a changed body fails');
    assert.equal(standardVerifies(S1, got), false, 'another secret fails');

    const listed = await svc(['admin', 'list-webhooks', '--json']);
    assert.deepEqual(JSON.parse(listed.stdout)[0].signatures, ['x-service', 'standard-webhooks']);
    assert.equal(listed.stderr, '');
  });

  it('during a rotation both standard signatures go out, so a receiver holding either secret verifies; after it, the next one only', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url, S1);
    const AT = '2026-11-22T12:00:00Z';
    assert.equal((await svc(['admin', 'rotate-secret', '--partner', 'ptn_a', '--secret', S2, '--activate-at', AT])).code, 0);
    await deliverAroundSwitch(db, 'ptn_a', AT, realWall);
    const [during, afterAt] = world.rx.received;
    assert.equal(during!.headers['webhook-signature']!.split(' ').length, 2);
    assert.deepEqual([standardVerifies(S1, during!), standardVerifies(S2, during!), contractValid(S1, during!)], [true, true, true]);
    assert.equal(afterAt!.headers['webhook-signature']!.split(' ').length, 1);
    assert.deepEqual([standardVerifies(S1, afterAt!), standardVerifies(S2, afterAt!), contractValid(S2, afterAt!)], [false, true, true]);
  });

  it('an endpoint with an older secret keeps the contract headers only, list-webhooks says so, and a rotation brings the standard ones', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url, SECRET);
    await seedEvent(db, 'ptn_a');
    await deliverDue(db, testDeps(testClock(), realWall), 'run_1');
    const [old] = world.rx.received;
    assert.equal(old!.signatureValid, true);
    assert.deepEqual(
      Object.keys(old!.headers).filter((h) => h.startsWith('webhook-')),
      [],
    );

    const listed = await svc(['admin', 'list-webhooks']);
    assert.match(listed.stdout, /\tx-service\t[^\n]*\n$/);
    assert.match(listed.stderr, /1 endpoint\(s\) sign with an older secret .*svc admin rotate-secret/);

    const rotated = await svc(['admin', 'rotate-secret', '--partner', 'ptn_a']);
    const next: string = JSON.parse(rotated.stdout).next_secret;
    await seedEvent(db, 'ptn_a');
    await deliverDue(db, testDeps(testClock(), realWall), 'run_2');
    const [, pending] = world.rx.received;
    assert.ok(contractValid(SECRET, pending!), 'the contract signature stays on the current secret until activate-at');
    assert.ok(standardVerifies(next, pending!), 'the standard one is made with the next secret at once');
  });
});
