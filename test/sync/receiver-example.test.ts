import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createReceiver, type WebhookEvent } from '../../examples/webhook-receiver.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { cli } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';
import { resetDelivery, SECRET, seedEndpoint, seedEvent, seedPartners, T0, testClock, testDeps } from '../support/sync-world.ts';

const NOW = Date.parse(T0);

async function startExample() {
  const events: WebhookEvent[] = [];
  const server = createReceiver({ secret: SECRET, onEvent: (e) => void events.push(e), now: () => NOW });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, events, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function signedPost(url: string, body: string, ts: number, secret = SECRET) {
  const signature = `v1=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
  return fetch(url, { method: 'POST', body, headers: { 'X-Service-Timestamp': String(ts), 'X-Service-Signature': signature } });
}

describe('the example receiver (examples/webhook-receiver.ts)', () => {
  let rx: Awaited<ReturnType<typeof startExample>>;
  before(async () => (rx = await startExample()));
  after(async () => rx.close());
  const body = JSON.stringify({
    schema_version: 1,
    event_id: 'evt_x1',
    event_type: 'crew.status.changed',
    occurred_at: T0,
    partner_id: 'p',
    data: {},
  });
  const ts = NOW / 1000;

  it('accepts a correctly signed delivery with 2xx, then answers a duplicate with 2xx without processing it again', async () => {
    assert.equal((await signedPost(rx.url, body, ts)).status, 202);
    assert.equal((await signedPost(rx.url, body, ts + 1)).status, 200);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      rx.events.map((e) => e.event_id),
      ['evt_x1'],
    );
  });

  it('rejects a wrong secret, a body changed by one byte and a timestamp over 300 s away', async () => {
    assert.equal((await signedPost(rx.url, body, ts, 'whsec_wrong')).status, 401);
    const sig = `v1=${createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex')}`;
    const tampered = await fetch(rx.url, {
      method: 'POST',
      body: body.replace('evt_x1', 'evt_x2'),
      headers: { 'X-Service-Timestamp': String(ts), 'X-Service-Signature': sig },
    });
    assert.equal(tampered.status, 401);
    assert.equal((await signedPost(rx.url, body, ts - 301)).status, 401);
    assert.equal((await signedPost(rx.url, body, ts + 301)).status, 401);
    assert.equal((await signedPost(rx.url, body.replace('evt_x1', 'evt_x3'), ts - 300)).status, 202);
  });

  it('processes an event only when it is newer than every event of its subject before it, answering a stale one 2xx', async () => {
    const event = (id: string, sequence: number, subject: string) =>
      JSON.stringify({
        schema_version: 1,
        event_id: id,
        event_type: 'crew.status.changed',
        occurred_at: T0,
        partner_id: 'p',
        sequence,
        subject,
        data: {},
      });
    const answers = [];
    for (const [id, sequence, subject] of [
      ['evt_s7', 7, 'status:crew_9'],
      ['evt_s5', 5, 'status:crew_9'],
      ['evt_s6', 6, 'profile:crew_9'],
      ['evt_s8', 8, 'status:crew_9'],
    ] as const)
      answers.push((await signedPost(rx.url, event(id, sequence, subject), ts)).status);
    assert.deepEqual(answers, [202, 200, 202, 202]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      rx.events.filter((e) => e.event_id.startsWith('evt_s')).map((e) => e.event_id),
      ['evt_s7', 'evt_s6', 'evt_s8'],
      'the older state of status:crew_9 is dropped',
    );
  });

  it('accepts only the exact form: altered signatures and timestamps are refused, though they decode to the right bytes', async () => {
    // evt_x1 processed once (202), or already (200): the exact form below is then its duplicate.
    assert.ok([200, 202].includes((await signedPost(rx.url, body, ts)).status));
    const hex = (t: string) => createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
    const post = (t: string, signature: string) =>
      fetch(rx.url, { method: 'POST', body, headers: { 'X-Service-Timestamp': t, 'X-Service-Signature': signature } });
    const t = String(ts);
    for (const [what, timestamp, signature] of [
      ['trailing non-hex', t, `v1=${hex(t)}zz`],
      ['upper-case hex', t, `v1=${hex(t).toUpperCase()}`],
      ['an extra hex digit', t, `v1=${hex(t)}0`],
      ['an odd hex digit dropped', t, `v1=${hex(t).slice(0, 63)}`],
      ['upper-case scheme', t, `V1=${hex(t)}`],
      ['no scheme', t, hex(t)],
      ['a timestamp with a leading zero', `0${t}`, `v1=${hex(`0${t}`)}`],
      ['a timestamp with a sign', `+${t}`, `v1=${hex(`+${t}`)}`],
      ['a timestamp with a fraction', `${t}.0`, `v1=${hex(`${t}.0`)}`],
    ] as const) {
      const res = await post(timestamp, signature);
      assert.equal(res.status, 401, what);
    }
    // The exact form, also beside another signature during a rotation.
    assert.equal((await post(t, `v1=${'0'.repeat(64)}, v1=${hex(t)}`)).status, 200, 'the duplicate of evt_x1 is accepted again');
  });

  it('run as a program, it listens on loopback only', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../../examples/webhook-receiver.ts', import.meta.url))],
      {
        env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const [line] = (await once(child.stdout.setEncoding('utf8'), 'data')) as [string];
      const port = Number(/^webhook receiver listening on http:\/\/127\.0\.0\.1:(\d+)\/$/m.exec(line)?.[1]);
      assert.ok(port > 0, line);
      assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 405);
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal);
      if (outside) {
        // Refused: nothing listens on that port of another interface.
        await assert.rejects(
          fetch(`http://${outside.address}:${port}/`),
          (err: any) => err.cause?.code === 'ECONNREFUSED',
          'not reachable on another interface',
        );
      }
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});

describeEachStore('the service delivering to the example receiver', ({ store, url }) => {
  it('a delivery is accepted; a replayed delivery of the same event_id is deduplicated', async () => {
    const db = store().db;
    await resetDelivery(db);
    await seedPartners(db, 'ptn_a');
    const rx = await startExample();
    try {
      await seedEndpoint(db, 'ptn_a', rx.url);
      const { eventId } = await seedEvent(db, 'ptn_a');
      assert.equal((await deliverDue(db, testDeps(testClock()), 'run_1')).totals.delivered, 1);
      await db.updateTable('outbox_events').set({ status: 'pending' }).where('event_id', '=', eventId).execute();
      assert.equal((await deliverDue(db, testDeps(testClock()), 'run_2')).totals.delivered, 1);
      assert.equal((await findOutboxEvent(db, eventId))?.attempts, 2);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        rx.events.map((e) => e.event_id),
        [eventId],
      );
    } finally {
      await rx.close();
    }
  });

  it('a run under SVC_NOW a year away is accepted: the signature carries the real time, which the receiver checks', async () => {
    const db = store().db;
    await resetDelivery(db);
    await seedPartners(db, 'ptn_a');
    const rx = await startExample();
    try {
      await seedEndpoint(db, 'ptn_a', rx.url);
      const { eventId } = await seedEvent(db, 'ptn_a');
      // The CLI's injected clock is the real time the receiver also has (T0); SVC_NOW moves only the business clock.
      const res = await cli(
        ['--db', url(), 'sync', '--deliver-only'],
        { SVC_NOW: '2027-11-22T10:00:00Z', SVC_NOW_ALLOW_WRITES: '1', SVC_ALLOW_INSECURE_WEBHOOKS: '1' },
        T0,
      );
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /: deliver only, no diff, 1 delivered/);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        rx.events.map((e) => e.event_id),
        [eventId],
      );
    } finally {
      await rx.close();
    }
  });
});
