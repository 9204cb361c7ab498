import assert from 'node:assert/strict';
import { after, afterEach, before, it } from 'node:test';
import { AMQP_URL, describeEachStoreWithBroker, openBroker, type Broker } from '../support/amqp.ts';
import { cli } from '../support/cli.ts';
import { eventually } from '../support/probe.ts';
import { spawnSvc, type SvcChild } from '../support/svc-child.ts';
import { waitForOutput } from '../support/wait.ts';

const crew = (id: string, data: Record<string, unknown> = {}) => ({
  entity: 'crew',
  op: 'upsert',
  id,
  version: 1,
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

describeEachStoreWithBroker('svc ingest --from amqp://…', ({ store, url }) => {
  let broker: Broker;
  let running: SvcChild | undefined;
  before(async () => {
    broker = await openBroker();
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
  });
  after(async () => {
    await broker.close();
  });
  const svc = (...argv: string[]) => cli(['--db', url(), 'ingest', ...argv]);
  const crewIds = async (prefix: string) =>
    (
      await store()
        .db.selectFrom('crew')
        .select('crew_unique_id')
        .where('crew_unique_id', 'like', `${prefix}%`)
        .orderBy('crew_unique_id')
        .execute()
    ).map((r) => r.crew_unique_id);

  it('drains the queue and exits 0 with the summary; a rejected change is dead-lettered, reported, and makes it exit 65', async () => {
    const queue = await broker.queue();
    await broker.publish(queue, [crew('crew_cq1')], 'c1');
    const ok = await svc('--from', AMQP_URL, '--queue', queue);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^1 messages acked, 0 changes dead-lettered; 1 changes: 1 applied, 0 stale, 0 held, 0 rejected; 0 waiting$/m);

    await broker.publish(queue, [crew('crew_cq2'), crew('crew_cq3', { email: 'not an address' })], 'c2');
    const bad = await svc('--from', AMQP_URL, '--queue', queue, '--dead-letter-queue', `${queue}.dead`, '--json');
    assert.equal(bad.code, 65, bad.stderr);
    const summary = JSON.parse(bad.stdout);
    assert.deepEqual([summary.messages, summary.dead_lettered, summary.applied, summary.rejected], [1, 1, 1, 1]);
    assert.equal(summary.rejections[0].origin, 'amqp:c2:2');
    assert.deepEqual(await crewIds('crew_cq'), ['crew_cq1', 'crew_cq2']);
    assert.equal(await broker.count(queue), 0);
    assert.equal((await broker.takeAll(`${queue}.dead`)).length, 1);
  });

  it('says what is wrong: queue flags without --from, --from without --queue or with --batch-size (64), a broker or queue that is not there (69)', async () => {
    const lone = await svc('--queue', 'q');
    assert.deepEqual([lone.code, lone.stderr], [64, 'svc: --queue, --dead-letter-queue and --follow go with --from amqp://…\n']);
    const noQueue = await svc('--from', AMQP_URL);
    assert.deepEqual([noQueue.code, noQueue.stderr], [64, 'svc: --from needs --queue NAME (the queue to consume)\n']);
    const batched = await svc('--from', AMQP_URL, '--queue', 'q', '--batch-size', '100');
    assert.deepEqual(
      [batched.code, batched.stderr],
      [64, 'svc: --from commits each message in a transaction of its own: --batch-size is for files\n'],
    );
    const down = await svc('--from', 'amqp://guest:secret@127.0.0.1:1', '--queue', 'q');
    assert.equal(down.code, 69);
    assert.match(down.stderr, /^svc: the broker at amqp:\/\/guest:\*\*\*@127\.0\.0\.1:1 does not answer: /);
    assert.doesNotMatch(down.stderr, /secret/);
    const missing = await svc('--from', AMQP_URL, '--queue', 'svc-test-no-such-queue');
    assert.equal(missing.code, 69);
    assert.match(missing.stderr, /queue "svc-test-no-such-queue" on .*NOT_FOUND/);
  });

  it('--follow keeps consuming until SIGTERM, then closes and exits 0 with its summary', async () => {
    const queue = await broker.queue();
    running = spawnSvc(['--db', url(), 'ingest', '--from', AMQP_URL, '--queue', queue, '--follow'], { SVC_LOG_LEVEL: 'silent' });
    await waitForOutput(running.child.stderr!, () => running!.stderr(), /following queue/, 20_000);
    await broker.publish(queue, [crew('crew_fq1')], 'f1');
    await broker.publish(queue, [crew('crew_fq2')], 'f2');
    await eventually('both messages are applied', async () => (await crewIds('crew_fq')).length === 2, 20_000);
    running.child.kill('SIGTERM');
    const [code] = await running.exited;

    assert.equal(code, 0, running.stderr());
    assert.match(running.stderr(), /SIGTERM: stopping/);
    assert.match(running.stdout(), /^2 messages acked, 0 changes dead-lettered; 2 changes: 2 applied/m);
    assert.equal(await broker.count(queue), 0);
    assert.deepEqual(await crewIds('crew_fq'), ['crew_fq1', 'crew_fq2']);
  });
});
