import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { connect } from 'amqplib';
import { sql, type Kysely } from 'kysely';
import { ingestQueue } from '../../src/services/ingest/amqp-source.ts';
import { STATS_REFRESH_FIRST } from '../../src/services/ingest/ingest-stream.ts';
import type { Database } from '../../src/store/database.ts';
import { AMQP_URL, describeEachStoreWithBroker, openBroker, type Broker } from '../support/amqp.ts';

/*
 * A long drain of a queue into a store that starts empty refreshes the store's statistics as it
 * grows it, as `svc ingest` from files does (test/services/ingest-statistics.test.ts), not only
 * once the queue is empty: plans made on empty tables would scan them for every row after
 * (docs/ingest.md, "Speed").
 */

const MESSAGES = 5;
const PER_MESSAGE = STATS_REFRESH_FIRST / MESSAGES;
const employer = (n: number) => ({ entity: 'employer', op: 'upsert', id: `emp_qs_${n}`, version: 1, data: { name: `Employer ${n}` } });

describeEachStoreWithBroker('ingest from a queue: statistics refreshed while the run grows the store', ({ store, dialect }) => {
  const db = (): Kysely<Database> => store().db;
  let broker: Broker;
  before(async () => {
    broker = await openBroker();
  });
  after(async () => {
    await broker.close();
  });

  /** The row count the store's statistics hold for employers (none: -1). */
  const employersInStatistics = async (): Promise<number> => {
    if (dialect === 'postgres') {
      const r = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where relname = 'employers'`.execute(db());
      return Number(r.rows[0]?.n ?? -1);
    }
    const table = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db());
    if (Number(table.rows[0]!.n) === 0) return -1;
    const r = await sql<{ stat: string }>`select stat from sqlite_stat1 where tbl = 'employers'`.execute(db());
    return r.rows.length === 0 ? -1 : Number(r.rows[0]!.stat.split(' ')[0]);
  };

  it(`after the first ${STATS_REFRESH_FIRST} changes applied, while the queue is followed`, async () => {
    const queue = await broker.queue();
    for (let m = 0; m < MESSAGES; m++)
      await broker.publish(
        queue,
        Array.from({ length: PER_MESSAGE }, (_, i) => employer(m * PER_MESSAGE + i)),
        `m${m}`,
      );
    const stop = new AbortController();
    let seen = 0;
    let midRun: Promise<number> | undefined;
    // Told once a message is committed; the last message is published only after the statistics were read, so no closing refresh came before.
    const onResults = (results: readonly unknown[]) => {
      seen += results.length;
      if (seen === STATS_REFRESH_FIRST) {
        midRun = employersInStatistics();
        void midRun.then(() => broker.publish(queue, [employer(STATS_REFRESH_FIRST)], 'm-last'));
      } else if (seen > STATS_REFRESH_FIRST) stop.abort();
    };
    const summary = await ingestQueue(
      db(),
      (u) => connect(u),
      { clock: () => new Date('2026-11-22T10:00:00.000Z'), holdMs: 3_600_000 },
      {
        url: AMQP_URL,
        queue,
        deadLetterQueue: `${queue}.dead`,
        follow: true,
        stop: stop.signal,
        onResults,
      },
    );
    assert.equal(summary.counts.applied, STATS_REFRESH_FIRST + 1);
    const counted = await midRun;
    assert.ok(
      counted !== undefined && counted >= STATS_REFRESH_FIRST,
      `statistics counted ${counted} employers while the queue was followed`,
    );
  });
});
