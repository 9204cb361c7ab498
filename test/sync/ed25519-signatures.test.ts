import assert from 'node:assert/strict';
import { createHmac, createPublicKey, verify } from 'node:crypto';
import { it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { replayDeadLetters } from '../../src/services/dead-letters.ts';
import { registerWebhookEndpoint, toEndpointWire } from '../../src/services/webhooks/endpoints.ts';
import { rotateWebhookSecret, toRotationWire } from '../../src/services/webhooks/rotate-secret.ts';
import type { Db } from '../../src/store/database.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { webhookTester } from '../../src/sync/test-event.ts';
import { verifyEd25519 } from '../../examples/webhook-receiver.ts';
import { cli } from '../support/cli.ts';
import { describeEachWorld } from '../support/read-api-world.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { deliverAroundSwitch } from '../support/rotation-switch.ts';
import type { Received } from '../support/receiver.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEvent, T0, testClock, testDeps } from '../support/sync-world.ts';

const PUBLIC_KEY = /^whpk_[A-Za-z0-9+/]{43}=$/;
/** A secret of the operator's own that does not serve Standard Webhooks' v1. */
const OWN_SECRET = 'whsec_my-own-secret-0123456789';

/**
 * What a receiver holding only the published `whpk_` key does, following the Standard Webhooks
 * text and nothing of the code under test: the key is the 32 raw Ed25519 bytes in standard base64
 * after `whpk_`; `webhook-signature` is a space-separated list; a `v1a,` entry is a base64 Ed25519
 * signature over `<webhook-id>.<webhook-timestamp>.<raw body>`; one valid entry is enough.
 */
function v1aVerifies(publicKey: string, r: Received, body = r.body): boolean {
  assert.match(publicKey, PUBLIC_KEY);
  const x = Buffer.from(publicKey.slice('whpk_'.length), 'base64').toString('base64url');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  const signed = Buffer.from(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${body}`);
  return (r.headers['webhook-signature'] ?? '')
    .split(' ')
    .filter((entry) => entry.startsWith('v1a,'))
    .some((entry) => verify(null, signed, key, Buffer.from(entry.slice('v1a,'.length), 'base64')));
}

const v1aCount = (r: Received) => (r.headers['webhook-signature'] ?? '').split(' ').filter((s) => s.startsWith('v1a,')).length;

/** The contract's own signature, computed here. */
const contractValid = (secret: string, r: Received) =>
  r.headers['x-service-signature'] ===
  `v1=${createHmac('sha256', secret).update(`${r.headers['x-service-timestamp']}.${r.body}`).digest('hex')}`;

// The standardwebhooks package compares webhook-timestamp with the real clock, so deliveries sign with it.
const realWall = { wallClock: () => new Date() };

async function registerEd25519(db: Db, url: string, secret?: string) {
  const body = { url, subscribed_events: ['crew.status.changed'], ed25519: true, ...(secret ? { secret } : {}) };
  const { endpoint } = await registerWebhookEndpoint(db, 'ptn_a', body, { clock: () => new Date(T0), allowInsecure: true });
  return endpoint;
}

describeEachStore('Ed25519 signatures (Standard Webhooks v1a) beside v1', ({ store, url }) => {
  const world = receiverWorld(store);
  const svc = (args: string[]) => cli(['--db', url(), ...args], { SVC_ALLOW_INSECURE_WEBHOOKS: '1' }, T0);
  const register = (...more: string[]) =>
    svc(['admin', 'register-webhook', '--partner', 'ptn_a', '--url', world.rx.url, '--events', 'crew.status.changed', ...more]);

  it('register-webhook --ed25519 shows the public key; a delivery verifies from it alone, an altered one does not, v1 unchanged', async () => {
    const reg = await register('--ed25519');
    assert.equal(reg.code, 0, reg.stderr);
    const shown = JSON.parse(reg.stdout) as { secret: string; public_key: string };
    assert.match(shown.public_key, PUBLIC_KEY);
    assert.match(reg.stderr, /Ed25519 signature \(Standard Webhooks v1a\)/);
    assert.doesNotMatch(reg.stdout + reg.stderr, /whsk_/, 'the private key is never shown');

    const { body } = await seedEvent(store().db, 'ptn_a');
    await deliverDue(store().db, testDeps(testClock(), realWall), 'run_1');
    const [got] = world.rx.received;
    assert.ok(got);
    assert.match(got.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}= v1a,[A-Za-z0-9+/]{86}==$/, 'v1 then v1a, space-separated');
    assert.equal(v1aVerifies(shown.public_key, got), true);
    assert.equal(v1aVerifies(shown.public_key, got, got.body.replace('verified', 'rejected')), false, 'an altered body fails');
    assert.equal(v1aVerifies(shown.public_key, { ...got, headers: { ...got.headers, 'webhook-id': 'evt_other' } }), false);
    assert.deepEqual(new Webhook(shown.secret).verify(got.body, got.headers), JSON.parse(body), 'the v1 HMAC still verifies');
    assert.ok(contractValid(shown.secret, got), 'X-Service-Signature as before');
    const example = (body: string, keys = [shown.public_key]) =>
      verifyEd25519(
        keys,
        { id: got.headers['webhook-id'], timestamp: got.headers['webhook-timestamp'], signature: got.headers['webhook-signature'] },
        Buffer.from(body),
        Math.floor(Date.now() / 1000),
      ).ok;
    assert.deepEqual(
      [example(got.body), example(`${got.body} `), example(got.body, [])],
      [true, false, false],
      'the example receiver agrees',
    );

    const listed = JSON.parse((await svc(['admin', 'list-webhooks', '--json'])).stdout)[0];
    assert.deepEqual([listed.signatures, listed.public_keys], [['x-service', 'standard-webhooks', 'ed25519'], [shown.public_key]]);

    const rotation = await svc(['admin', 'rotate-secret', '--partner', 'ptn_a']);
    assert.match(JSON.parse(rotation.stdout).next_public_key, PUBLIC_KEY);
    assert.match(rotation.stderr, /next Ed25519 key pair stored too/);
    assert.doesNotMatch(rotation.stdout + rotation.stderr, /whsk_/);

    const again = JSON.parse((await register('--ed25519')).stdout) as { public_key: string };
    assert.equal(
      again.public_key,
      shown.public_key,
      'registering again with --ed25519 keeps the key pair in force (and cancels the rotation)',
    );
    const without = JSON.parse((await register()).stdout) as { public_key: string | null };
    assert.equal(without.public_key, null, 'registering without it drops the key');
    await seedEvent(store().db, 'ptn_a');
    await deliverDue(store().db, testDeps(testClock(), realWall), 'run_2');
    assert.equal(v1aCount(world.rx.received[1]!), 0);
  });

  it('during a rotation both keys sign, so a receiver trusting either verifies; from activate-at the next one alone', async () => {
    const db = store().db;
    const current = await registerEd25519(db, world.rx.url);
    const AT = '2026-11-22T12:00:00Z';
    const rotated = await rotateWebhookSecret(db, 'ptn_a', { activate_at: AT }, { clock: () => new Date(T0) });
    const oldKey = toEndpointWire(current).public_key!;
    const nextKey = toRotationWire(rotated).next_public_key!;
    assert.match(nextKey, PUBLIC_KEY);
    assert.notEqual(nextKey, oldKey);

    await deliverAroundSwitch(db, 'ptn_a', AT, realWall);
    const [during, afterAt] = world.rx.received;
    assert.deepEqual([v1aCount(during!), v1aVerifies(oldKey, during!), v1aVerifies(nextKey, during!)], [2, true, true]);
    assert.deepEqual([v1aCount(afterAt!), v1aVerifies(oldKey, afterAt!), v1aVerifies(nextKey, afterAt!)], [1, false, true]);
  });

  it('a secret that does not serve Standard Webhooks: webhook-signature carries the v1a signature alone', async () => {
    const db = store().db;
    const publicKey = toEndpointWire(await registerEd25519(db, world.rx.url, OWN_SECRET)).public_key!;
    await seedEvent(db, 'ptn_a');
    await deliverDue(db, testDeps(testClock(), realWall), 'run_1');
    const [got] = world.rx.received;
    assert.match(got!.headers['webhook-signature']!, /^v1a,[A-Za-z0-9+/]{86}==$/);
    assert.deepEqual(
      [v1aVerifies(publicKey, got!), contractValid(OWN_SECRET, got!)],
      [true, true],
      'X-Service signs with the secret as before',
    );
  });

  it('retries, replays and test events carry the v1a signature too', async () => {
    const db = store().db;
    const publicKey = toEndpointWire(await registerEd25519(db, world.rx.url)).public_key!;
    const tc = testClock();
    world.reply = (n) => ({ status: n === 1 ? 500 : 204 });
    await seedEvent(db, 'ptn_a');
    await deliverDue(db, testDeps(tc, realWall), 'run_1');
    tc.advance(60 * 60_000);
    await deliverDue(db, testDeps(tc, realWall), 'run_2');
    assert.equal(world.rx.received.length, 2, 'a failed attempt and its retry');

    world.reply = (n) => ({ status: n === 3 ? 422 : 204 });
    const { eventId } = await seedEvent(db, 'ptn_a', { nextAttemptAt: tc.iso() });
    await deliverDue(db, testDeps(tc, realWall), 'run_3');
    assert.equal((await findOutboxEvent(db, eventId))?.status, 'dead');
    await replayDeadLetters(db, { partnerId: 'ptn_a' }, tc.clock);
    await deliverDue(db, testDeps(tc, realWall), 'run_4');
    assert.equal((await findOutboxEvent(db, eventId))?.status, 'delivered');

    await webhookTester(db, testDeps(tc, realWall))('ptn_a');
    const received = world.rx.received;
    assert.deepEqual(
      received.map((r) => [r.eventType, v1aCount(r), v1aVerifies(publicKey, r)]),
      [
        ['crew.status.changed', 1, true],
        ['crew.status.changed', 1, true],
        ['crew.status.changed', 1, true],
        ['crew.status.changed', 1, true],
        ['svc.test', 1, true],
      ],
    );
  });
});

describeEachWorld(
  'Ed25519 public keys over HTTP: the operator registers, the partner reads them',
  { config: { allowInsecureWebhooks: true } },
  (w) => {
    const endpoints = '/api/v2/admin/partners/ptn_full/webhook-endpoints';

    it('the registration answer and GET partners/me show the public key; during a rotation, both keys', async () => {
      const reg = await w.api.request('POST', endpoints, {
        key: w.keys.operator,
        body: { url: 'http://127.0.0.1:9/hook', subscribed_events: ['crew.status.changed'], ed25519: true },
      });
      assert.equal(reg.status, 201, JSON.stringify(reg.json));
      const publicKey = reg.json.public_key as string;
      assert.match(publicKey, PUBLIC_KEY);
      assert.deepEqual((await w.api.get('/api/v2/partners/me', { key: w.keys.full })).json.webhook_public_keys, [publicKey]);
      assert.deepEqual(
        (await w.api.get('/api/v2/partners/me', { key: w.keys.basic })).json.webhook_public_keys,
        [],
        "another partner's: none",
      );

      const rotation = await w.api.request('POST', `${endpoints}/secret-rotation`, { key: w.keys.operator, body: {} });
      assert.equal(rotation.status, 201);
      const next = rotation.json.next_public_key as string;
      assert.match(next, PUBLIC_KEY);
      assert.deepEqual((await w.api.get('/api/v2/partners/me', { key: w.keys.full })).json.webhook_public_keys, [publicKey, next]);
      assert.doesNotMatch(JSON.stringify([reg.json, rotation.json]), /whsk_/, 'never the private key');
    });
  },
);
