import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { it } from 'node:test';
import { cli } from '../support/cli.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { deliverAroundSwitch } from '../support/rotation-switch.ts';
import type { Received } from '../support/receiver.ts';
import { describeEachWorld } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { SECRET, seedEndpoint, T0 } from '../support/sync-world.ts';

const NEXT = 'whsec_the-next-secret-0123456789abcdef';
const AT = '2026-11-22T12:00:00Z';

/** Computed here, independently of the code under test. */
function signedWith(secret: string, r: Received): boolean {
  return r.signature === `v1=${createHmac('sha256', secret).update(`${r.timestamp}.${r.body}`).digest('hex')}`;
}

describeEachStore('webhook secret rotation without downtime', ({ store, url }) => {
  const world = receiverWorld(store);

  it('rotate-secret prints the next secret once; deliveries sign with the current one until activate-at, then with the next', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const res = await cli(['--db', url(), 'admin', 'rotate-secret', '--partner', 'ptn_a', '--secret', NEXT, '--activate-at', AT], {}, T0);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(JSON.parse(res.stdout), {
      endpoint_id: 'whe_ptn_a',
      partner_id: 'ptn_a',
      next_secret: NEXT,
      next_public_key: null,
      activate_at: AT,
    });
    assert.match(res.stderr, /not shown again/);

    const listed = await cli(['--db', url(), 'admin', 'list-webhooks', '--json'], {}, T0);
    assert.equal(JSON.parse(listed.stdout)[0].rotation_pending_until, AT);
    assert.ok(!listed.stdout.includes(NEXT) && !listed.stdout.includes(SECRET), 'never a secret in the list');

    await deliverAroundSwitch(db, 'ptn_a', AT);
    const [before, afterAt] = world.rx.received;
    assert.deepEqual([signedWith(SECRET, before!), signedWith(NEXT, before!)], [true, false], 'before activate-at: the current secret');
    assert.deepEqual([signedWith(SECRET, afterAt!), signedWith(NEXT, afterAt!)], [false, true], 'from activate-at: the next one');
    assert.ok(
      world.rx.received.every((r) => /^v1=[0-9a-f]{64}$/.test(r.signature)),
      'one signature per delivery',
    );

    const later = await cli(['--db', url(), 'admin', 'list-webhooks', '--json'], {}, '2026-11-22T12:00:01.000Z');
    assert.equal(
      JSON.parse(later.stdout)[0].rotation_pending_until,
      null,
      'no longer pending once active (null, as every absent value in --json)',
    );
  });

  it('a generated secret by default, switching in 24 hours; bad input changes nothing', async () => {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const res = await cli(['--db', url(), 'admin', 'rotate-secret', '--partner', 'ptn_a'], {}, T0);
    assert.equal(res.code, 0, res.stderr);
    const wire = JSON.parse(res.stdout);
    assert.match(wire.next_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(wire.activate_at, '2026-11-23T10:00:00Z');
    for (const [flags, problem] of [
      [['--activate-at', '2026-11-21T00:00:00Z'], /--activate-at: should not be in the past/],
      [['--activate-at', 'tomorrow'], /ISO 8601/],
      [['--secret', 'short'], /at least 24 characters/],
    ] as const) {
      const bad = await cli(['--db', url(), 'admin', 'rotate-secret', '--partner', 'ptn_a', ...flags], {}, T0);
      assert.equal(bad.code, 65, bad.stderr);
      assert.match(bad.stderr, problem);
      assert.ok(!bad.stderr.includes('short') || !flags.includes('short' as never), 'a rejected secret is not echoed');
    }
    const listed = await cli(['--db', url(), 'admin', 'list-webhooks', '--json'], {}, T0);
    assert.equal(JSON.parse(listed.stdout)[0].rotation_pending_until, '2026-11-23T10:00:00Z', 'the first rotation stands');
    const none = await cli(['--db', url(), 'admin', 'rotate-secret', '--partner', 'ptn_nobody'], {}, T0);
    assert.notEqual(none.code, 0);
  });
});

describeEachWorld('admin: rotating a webhook secret over HTTP', { config: { allowInsecureWebhooks: true } }, (w) => {
  const path = (p: string) => `/api/v2/admin/partners/${p}/webhook-endpoints/secret-rotation`;

  it('201 with the next secret (no-store); 404 without an endpoint; 422 for bad input; partner keys refused', async () => {
    assert.equal((await w.api.request('POST', path('ptn_full'), { key: w.keys.operator, body: {} })).status, 404);
    assert.equal(
      (
        await w.api.request('POST', '/api/v2/admin/partners/ptn_full/webhook-endpoints', {
          key: w.keys.operator,
          body: { url: 'http://127.0.0.1:9/hook', subscribed_events: ['crew.status.changed'] },
        })
      ).status,
      201,
    );
    const res = await w.api.request('POST', path('ptn_full'), {
      key: w.keys.operator,
      body: { secret: NEXT, activate_at: '2099-01-01T00:00:00Z' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.json));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(
      { ...res.json, endpoint_id: undefined },
      { endpoint_id: undefined, partner_id: 'ptn_full', next_secret: NEXT, next_public_key: null, activate_at: '2099-01-01T00:00:00Z' },
    );
    const bad = await w.api.request('POST', path('ptn_full'), { key: w.keys.operator, body: { secret: 'x', when: 1 } });
    assert.equal(bad.status, 422);
    assert.ok(!JSON.stringify(bad.json).includes('"x"'), 'the rejected secret is redacted');
    assert.equal((await w.api.request('POST', path('ptn_full'), { key: w.keys.full, body: {} })).status, 403);
  });
});
