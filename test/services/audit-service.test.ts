import assert from 'node:assert/strict';
import { once, EventEmitter } from 'node:events';
import { after, before, it } from 'node:test';
import type { Kysely } from 'kysely';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { createAuditService, type AuditEntry, type AuditService } from '../../src/services/audit.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import type { Database } from '../../src/store/database.ts';
import { expectError } from '../support/expect.ts';
import { startWorld } from '../support/read-api-world.ts';
import { describeEachStore, type DialectLabel } from '../support/stores.ts';

const entry = (requestId: string): AuditEntry => ({
  requestId,
  at: '2026-11-22T10:00:00.000Z',
  partnerId: null,
  keyId: null,
  method: 'GET',
  route: null,
  path: '/x',
  crewUniqueId: null,
  documentId: null,
  status: 200,
  latencyMs: 1,
  clientIp: null,
  traceId: null,
});

/** Another session holding the lock an audit insert needs, until `release`. */
async function holdAuditLock(dialect: DialectLabel, url: string): Promise<{ release(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const db = new sqlite3.Database(url.slice('sqlite:'.length));
    const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
    await exec('begin immediate');
    return {
      release: async () => {
        await exec('rollback');
        await new Promise<void>((r) => db.close(() => r()));
      },
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query('lock table audit_log in exclusive mode');
  return {
    release: async () => {
      await client.query('rollback');
      await client.end();
    },
  };
}

/** A logger whose warnings are events, to wait for a failed write instead of sleeping. */
function eventLogger() {
  const events = new EventEmitter();
  return { events, logger: { warn: (o: object, m: string) => void events.emit('warn', m, o), info: () => {} } };
}

/** Waits for the service's first failed write; the service's own timer does not hold the process open. */
async function firstFailure(events: EventEmitter): Promise<void> {
  const alive = setInterval(() => {}, 1000);
  try {
    await once(events, 'warn');
  } finally {
    clearInterval(alive);
  }
}

/**
 * An audit service whose writes start when the test ticks; `during(n)` runs as the n-th insert
 * starts, and the insert's result waits for what `hold(n)` returns.
 */
function tickedAudit(
  db: Kysely<Database>,
  during: (inserts: number, audit: AuditService) => void,
  hold: (inserts: number) => Promise<void> | undefined = () => undefined,
) {
  let tick = () => {};
  let inserts = 0;
  let done = () => {};
  let inserted = new Promise<void>((resolve) => (done = resolve));
  const audit: AuditService = createAuditService(
    db.withPlugin({
      transformQuery({ node }) {
        if (node.kind === 'InsertQueryNode') during(++inserts, audit);
        return node;
      },
      async transformResult({ result }) {
        await hold(inserts);
        done();
        return result;
      },
    }),
    {
      schedule: (t) => {
        tick = t;
        return () => {};
      },
    },
  );
  return {
    audit,
    tick: () => tick(),
    inserts: () => inserts,
    /** Waits for an insert to end; whatever the service does next (another statement, say) has started by then. */
    async afterWrite() {
      await inserted;
      inserted = new Promise<void>((resolve) => (done = resolve));
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describeEachStore('the audit service', ({ store, url, dialect }) => {
  let impatient: Store;
  before(async () => {
    // Gives up on a held lock quickly, so a retry is seen soon.
    impatient = await openStore(url(), { timeoutMs: 200 });
  });
  after(() => impatient.close());
  const count = async (prefix: string) =>
    (await store().db.selectFrom('audit_log').select('request_id').where('request_id', 'like', `${prefix}%`).execute()).length;

  it("writes recorded rows off the caller's path; flush waits for them; close writes what is left", async () => {
    const audit = createAuditService(store().db, { intervalMs: 10_000 });
    for (let i = 0; i < 1200; i++) audit.record(entry(`req_batch_${i}`), false);
    assert.equal(await count('req_batch_'), 0, 'nothing written before the interval or a flush');
    await audit.flush();
    assert.equal(await count('req_batch_'), 1200);
    audit.record(entry('req_close_1'), false);
    assert.equal(await audit.close(), 0);
    assert.equal(await count('req_close_'), 1);
  });

  it('a write takes the rows queued when it began; rows recorded meanwhile wait for the next tick', async () => {
    // Under load rows keep arriving while a batch is written: one arrives during each of the first two writes.
    const t = tickedAudit(store().db, (inserts, audit) => {
      if (inserts <= 2) audit.record(entry(`req_tick_arrival_${inserts}`), false);
    });
    try {
      for (let i = 0; i < 3; i++) t.audit.record(entry(`req_tick_${i}`), false);
      t.tick();
      await t.afterWrite();
      assert.equal(t.inserts(), 1, 'one statement per tick');
      assert.equal(await count('req_tick_'), 3);
      assert.equal(t.audit.backlog, 1, 'the row recorded during the write waits');
      t.tick();
      await t.afterWrite();
      assert.equal(t.inserts(), 2);
      assert.equal(await count('req_tick_'), 4);
      assert.equal(await t.audit.close(), 0);
      assert.equal(await count('req_tick_'), 5, 'closing writes what is left');
    } finally {
      await t.audit.close(0);
    }
  });

  it('a tick during a write slower than the interval starts the next write as soon as that one ends', async () => {
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const t = tickedAudit(
      store().db,
      () => {},
      (inserts) => (inserts === 1 ? slow : undefined),
    );
    try {
      t.audit.record(entry('req_slow_0'), false);
      t.tick();
      t.audit.record(entry('req_slow_1'), false);
      t.tick();
      release();
      await t.afterWrite();
      assert.equal(t.inserts(), 2, 'the second write started without another tick');
      await t.afterWrite();
      assert.equal(await count('req_slow_'), 2);
    } finally {
      await t.audit.close(0);
    }
  });

  it('a store that refuses writes delays rows, never drops or repeats them', async () => {
    const { events, logger } = eventLogger();
    const audit = createAuditService(impatient.db, { intervalMs: 20, logger });
    const holder = await holdAuditLock(dialect, url());
    let released = false;
    try {
      const failed = firstFailure(events);
      for (let i = 0; i < 50; i++) audit.record(entry(`req_locked_${i}`), false);
      await failed;
      assert.equal(await count('req_locked_'), 0);
      assert.equal(audit.backlog, 50);
      await holder.release();
      released = true;
      await audit.flush();
      const rows = await store().db.selectFrom('audit_log').select('request_id').where('request_id', 'like', 'req_locked_%').execute();
      assert.deepEqual(rows.map((r) => r.request_id).sort(), Array.from({ length: 50 }, (_, i) => `req_locked_${i}`).sort());
    } finally {
      if (!released) await holder.release();
      await audit.close(0);
    }
  });

  it('a full queue refuses calls with 503 store_unavailable instead of serving them unaudited; health still answers', async () => {
    const { events, logger } = eventLogger();
    const audit = createAuditService(impatient.db, { intervalMs: 20, maxQueued: 3, logger });
    const w = await startWorld(store().db, { deps: { audit } });
    const holder = await holdAuditLock(dialect, url());
    let released = false;
    try {
      const ids: string[] = [];
      const failed = firstFailure(events);
      for (let i = 0; i < 3; i++) {
        const res = await w.api.get('/api/v2/partners/me', { key: w.keys.full });
        assert.equal(res.status, 200);
        ids.push(res.headers.get('x-request-id')!);
      }
      await failed;
      const refused = await w.api.get('/api/v2/partners/me', { key: w.keys.full });
      expectError(refused, 503, 'store_unavailable');
      assert.match(refused.headers.get('x-request-id') ?? '', /^req_/);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal((await w.api.get('/_internal/health')).status, 200);
      await holder.release();
      released = true;
      for (const id of ids) assert.equal((await w.auditOf(id)).length, 1);
      assert.equal((await w.api.get('/api/v2/partners/me', { key: w.keys.full })).status, 200, 'served again once the rows are written');
    } finally {
      if (!released) await holder.release();
      await w.close();
    }
  });
});
