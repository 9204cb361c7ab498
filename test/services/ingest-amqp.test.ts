import { documentChange } from '../support/document-change.ts';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { connect } from 'amqplib';
import type { Kysely } from 'kysely';
import { ingestQueue, type QueueOptions } from '../../src/services/ingest/amqp-source.ts';
import type { Database } from '../../src/store/database.ts';
import { openStore } from '../../src/store/connect.ts';
import { AMQP_URL, describeEachStoreWithBroker, openBroker, type Broker } from '../support/amqp.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const T0 = '2026-11-22T10:00:00.000Z';
const deps = { clock: () => new Date(T0), holdMs: 24 * 3_600_000 };

const employer = { entity: 'employer', op: 'upsert', id: 'emp_q', version: 1, data: { name: 'Queue Shipping' } };
const vessel = {
  entity: 'vessel',
  op: 'upsert',
  id: 'ves_q',
  version: 1,
  data: {
    employer_id: 'emp_q',
    vessel_name: 'Queue Star',
    imo: null,
    mmsi: null,
    flag_state: 'GB',
    vessel_type: 'bulk_carrier',
    gross_tonnage: 30000,
    propulsion_kw: 9000,
  },
};
const crew = (id: string, version: number, data: Record<string, unknown> = {}) => ({
  entity: 'crew',
  op: 'upsert',
  id,
  version,
  data: {
    name: 'Ana Queue',
    rank: 'Master',
    email: 'ana@example.com',
    phone: '+4712345678',
    bio: 'first',
    verification_status: 'verified',
    ...data,
  },
});
const document = (id: string, crewId: string) => documentChange(id, crewId, 1);

describeEachStoreWithBroker('svc ingest from a RabbitMQ queue', ({ store, url, dialect }) => {
  const db = () => store().db;
  let broker: Broker;
  before(async () => {
    broker = await openBroker();
  });
  after(async () => {
    await broker.close();
  });
  const run = (queue: string, options: Partial<QueueOptions> = {}, on: Kysely<Database> = db(), ingestDeps = deps) =>
    ingestQueue(on, (u) => connect(u), ingestDeps, {
      url: AMQP_URL,
      queue,
      deadLetterQueue: `${queue}.dead`,
      follow: false,
      stop: new AbortController().signal,
      ...options,
    });
  const crewRow = (id: string) =>
    db().selectFrom('crew').select(['crew_unique_id', 'bio', 'date_of_birth']).where('crew_unique_id', '=', id).executeTakeFirst();

  it('drain: each message is applied and acked, held changes settle once their entity comes, and the queue is empty afterwards', async () => {
    const queue = await broker.queue();
    await broker.publish(queue, [employer, vessel, document('doc_q1', 'crew_q1')], 'm1');
    await broker.publish(queue, [crew('crew_q1', 1)], 'm2');
    await broker.publish(queue, [{ entity: 'crew', op: 'patch', id: 'crew_q1', version: 2, data: { bio: 'patched' } }], 'm3');

    const summary = await run(queue);

    assert.deepEqual(
      [summary.messages, summary.changes, summary.counts.applied, summary.counts.held, summary.waiting, summary.deadLettered],
      [3, 5, 5, 0, 0, 0],
    );
    assert.equal(await broker.count(queue), 0, 'every message was acked');
    assert.equal((await crewRow('crew_q1'))?.bio, 'patched');
    const doc = await db().selectFrom('documents').select('crew_unique_id').where('document_id', '=', 'doc_q1').executeTakeFirst();
    assert.equal(doc?.crew_unique_id, 'crew_q1', 'the document held for its crew member was applied once they came');
  });

  it('a rejected change goes to the dead-letter queue with its reason and issues, nothing of it is written; the rest of its message applies', async () => {
    const queue = await broker.queue();
    const bad = crew('crew_q_bad', 1, { date_of_birth: '2027-02-29' });
    await broker.publish(queue, [crew('crew_q2', 1), bad], 'm-bad');

    const summary = await run(queue);

    assert.deepEqual([summary.messages, summary.counts.applied, summary.counts.rejected, summary.deadLettered], [1, 1, 1, 1]);
    assert.equal(await broker.count(queue), 0, 'the message was acked once its rejected change was dead-lettered');
    assert.ok(await crewRow('crew_q2'));
    assert.equal(await crewRow('crew_q_bad'), undefined, 'nothing of the rejected change was written');
    const letters = (await broker.takeAll(`${queue}.dead`)) as Array<Record<string, any>>;
    assert.equal(letters.length, 1);
    const [letter] = letters;
    assert.deepEqual([letter!.origin, letter!.source_queue, letter!.entity, letter!.id], ['amqp:m-bad:2', queue, 'crew', 'crew_q_bad']);
    assert.ok(letter!.reason);
    assert.deepEqual(
      letter!.issues.map((i: { loc: unknown }) => i.loc),
      [['data', 'date_of_birth']],
    );
    assert.deepEqual(JSON.parse(letter!.change), bad, 'the change travels as it was received');
  });

  it('a held change is acked with its message and, given up at its deadline by a later run, dead-lettered then', async () => {
    const queue = await broker.queue();
    await broker.publish(queue, [document('doc_q_orphan', 'crew_q_never')], 'm-held');

    const first = await run(queue);
    assert.deepEqual([first.messages, first.counts.held, first.waiting, first.deadLettered], [1, 1, 1, 0]);
    assert.equal(await broker.count(queue), 0, 'a held change does not keep its message in the queue');

    const dayLater = { ...deps, clock: () => new Date(Date.parse(T0) + 25 * 3_600_000) };
    const later = await run(queue, {}, db(), dayLater);
    assert.deepEqual([later.messages, later.earlierHeld.rejected, later.waiting, later.deadLettered], [0, 1, 0, 1]);
    const [letter] = (await broker.takeAll(`${queue}.dead`)) as Array<Record<string, any>>;
    assert.deepEqual([letter!.origin, letter!.id], ['amqp:m-held:1', 'doc_q_orphan']);
    assert.match(letter!.reason, /unknown crew "crew_q_never" \(crew_unique_id\); held since/);
  });

  it('a store that fails: the message is not acked and stays in the queue, nothing of it committed', async () => {
    const queue = await broker.queue();
    await broker.publish(queue, [crew('crew_q3', 1)], 'm-store');
    const broken = await openStore(url());
    await broken.close();

    await assert.rejects(run(queue, {}, broken.db), /driver has already been destroyed/);

    assert.equal(await broker.count(queue), 1, 'the message went back to the queue');
    assert.equal(await crewRow('crew_q3'), undefined);
    const retried = await run(queue);
    assert.deepEqual([retried.messages, retried.counts.applied], [1, 1], 'the next run applies it');
  });

  /** Runs `body` on a store reached through a TCP proxy (test/support/tcp-proxy.ts) that it may reset, as if Postgres went down. */
  async function withStoreBehindProxy(body: (on: Kysely<Database>, proxy: TcpProxy) => Promise<void>): Promise<void> {
    const target = new URL(url());
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.port = String(proxy.port);
    const viaProxy = await openStore(target.toString());
    try {
      await body(viaProxy.db, proxy);
    } finally {
      await viaProxy.close().catch(() => {});
      await proxy.close();
    }
  }
  const noSqliteOutage = { skip: dialect === 'sqlite' && 'a SQLite file cannot go away under a running process' };

  it('a store that goes away: store_unavailable naming the message, which went back to the queue', noSqliteOutage, async () => {
    const queue = await broker.queue();
    await broker.publish(queue, [crew('crew_q7', 1)], 'm-outage');
    await withStoreBehindProxy(async (on, proxy) => {
      proxy.setMode('reset');
      await assert.rejects(run(queue, {}, on), {
        code: 'store_unavailable',
        message:
          /^the store became unavailable while applying message m-outage \(.*\); nothing of it was committed and it went back to the queue$/,
      });
    });
    assert.equal(await broker.count(queue), 1);
  });

  it(
    'a store that goes away after a message was acked (retrying held changes): store_unavailable, the message stays acked',
    noSqliteOutage,
    async () => {
      const queue = await broker.queue();
      await broker.publish(queue, [crew('crew_q8', 1)], 'm-acked');
      await withStoreBehindProxy(async (on, proxy) => {
        // Told once the message is acked; the store goes away before the run tries held changes again.
        const onResults = () => proxy.setMode('reset');
        await assert.rejects(run(queue, { onResults }, on), {
          code: 'store_unavailable',
          message: /^the store became unavailable \(.*\); what the run committed stays, its messages acked$/,
        });
      });
      assert.equal(await broker.count(queue), 0);
      assert.ok(await crewRow('crew_q8'));
    },
  );

  it('--follow: consumes messages as they come; stopped mid-message, it finishes that one, takes no other and returns the rest to the queue', async () => {
    const queue = await broker.queue();
    const stop = new AbortController();
    let consuming!: () => void;
    const started = new Promise<void>((resolve) => (consuming = resolve));
    let firstApplied!: () => void;
    const applied = new Promise<void>((resolve) => (firstApplied = resolve));
    let stopMidMessage = false;
    // The signal arrives while a message is being applied: its changes read the clock.
    const clock = () => {
      if (stopMidMessage) stop.abort();
      return new Date(T0);
    };
    const running = run(
      queue,
      {
        follow: true,
        stop: stop.signal,
        onConsuming: consuming,
        onResults: (results) => {
          if (results.some((r) => r.outcome === 'applied')) firstApplied();
        },
      },
      db(),
      { ...deps, clock },
    );
    await started;
    await broker.publish(queue, [crew('crew_q4', 1)], 'm-follow-1');
    await applied;
    stopMidMessage = true;
    await broker.publish(queue, [crew('crew_q5', 1)], 'm-follow-2');
    await broker.publish(queue, [crew('crew_q6', 1)], 'm-follow-3');

    const summary = await running;
    assert.deepEqual([summary.messages, summary.counts.applied], [2, 2], 'the message in hand when the signal came was finished');
    assert.ok(await crewRow('crew_q4'));
    assert.ok(await crewRow('crew_q5'));
    assert.equal(await crewRow('crew_q6'), undefined);
    assert.equal(await broker.count(queue), 1, 'the message not taken is back in the queue');
  });

  it('--follow: a queue deleted under the consumer ends the run with queue_unavailable', async () => {
    const queue = await broker.queue();
    let consuming!: () => void;
    const started = new Promise<void>((resolve) => (consuming = resolve));
    const running = run(queue, { follow: true, onConsuming: consuming });
    await started;
    // Awaited from now: the run may end before deleteQueue's answer arrives.
    const ended = assert.rejects(running, {
      code: 'queue_unavailable',
      message: `the broker cancelled the consumer of queue "${queue}" (was the queue deleted?)`,
    });
    await broker.channel.deleteQueue(queue);
    await ended;
  });
});
