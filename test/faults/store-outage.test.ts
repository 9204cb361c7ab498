import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { NOW, worldFixture } from '../support/read-api-world.ts';
import { describeEachStore, PG_ADMIN_URL } from '../support/stores.ts';
import { eventually, probe, type Probe } from '../support/probe.ts';
import { startServeChild, type ServeChild } from '../support/serve-child.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const FLEET = '/api/v2/employers/me/fleet';
const HEALTH = '/_internal/health';
/** SVC_STORE_TIMEOUT_MS of the server under test: short, so an outage costs each request seconds, not tens. */
const STORE_TIMEOUT_MS = 1000;
/** What any answer may take during an outage: a failed store call and the audit write after it, with room to spare. */
const ANSWER_LIMIT_MS = 4 * STORE_TIMEOUT_MS + 2000;

async function admin(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Every call refused with the documented 500 body, which names its request id and nothing else. */
function assertFailed(calls: Probe[]): void {
  for (const c of calls) {
    assert.equal(c.status, 500, JSON.stringify(c.json));
    assert.equal(c.json.detail.code, 'internal_error');
    assert.equal(
      c.json.detail.message,
      `an unexpected error occurred; quote request id ${c.headers.get('x-request-id')} when reporting it`,
    );
  }
}

function assertUnavailable(health: Probe, calls: Probe[]): void {
  assert.equal(health.status, 503);
  assert.deepEqual(health.json, { status: 'unavailable', store: 'unavailable' });
  assert.equal(health.headers.get('cache-control'), 'no-store');
  assertFailed(calls);
}

async function fleetCalls(server: ServeChild, key: string, n: number): Promise<Probe[]> {
  return Promise.all(Array.from({ length: n }, () => probe(server.url, FLEET, key, ANSWER_LIMIT_MS)));
}

/** Health 200 and the fleet page served again, by the same process: nothing restarted it. */
async function assertRecovered(server: ServeChild, key: string): Promise<void> {
  await eventually('health answers 200 again', async () => (await probe(server.url, HEALTH, undefined, ANSWER_LIMIT_MS)).status === 200);
  const calls = await fleetCalls(server, key, 4);
  assert.deepEqual(
    calls.map((c) => c.status),
    [200, 200, 200, 200],
  );
  assert.ok(calls.every((c) => c.json.items.length > 0));
  assert.ok(server.alive(), 'the server process is still running');
  assert.equal(server.stderr(), '', 'nothing was printed outside the JSON log (no crash, no unhandled rejection)');
}

describeEachStore('svc serve while its store goes away and comes back', ({ store, url, dialect }) => {
  let server: ServeChild | undefined;
  let proxy: TcpProxy | undefined;
  let key: string;
  const database = () => new URL(url()).pathname.slice(1);

  before(async () => {
    const db = store().db;
    await loadFixtures(db, [writeFixture(worldFixture())], () => NOW);
    key = (await issuePartnerKey(db, 'ptn_full', 'live', () => NOW)).key;
    let serveUrl = url();
    if (dialect === 'postgres') {
      // The server reaches Postgres through a proxy the tests can turn into a partition.
      const target = new URL(url());
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      target.port = String(proxy.port);
      serveUrl = target.toString();
    }
    server = await startServeChild(serveUrl, { SVC_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS) });
    const first = await probe(server.url, FLEET, key);
    assert.equal(first.status, 200);
  });
  after(async () => {
    await server?.stop();
    await proxy?.close();
    if (dialect === 'postgres') await admin(`alter database "${database()}" allow_connections true`).catch(() => {});
  });

  // A SQLite file cannot go away under a running process (its open handles outlive a rename or an
  // unlink); what does happen, another process holding the write lock for long, is
  // write-lock-traffic.test.ts.
  if (dialect === 'sqlite') return;

  const backends = async () =>
    Number(
      (await admin('select count(*) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database()])).rows[0].n,
    );
  const terminateAll = async () => {
    await admin('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database()]);
    await eventually('every backend of the test database has exited', async () => (await backends()) === 0, 60_000);
  };

  it('every connection terminated by the server: the next calls open fresh ones and none fails', async () => {
    await fleetCalls(server!, key, 4);
    await terminateAll();
    for (let i = 0; i < 3; i++) {
      assert.equal((await probe(server!.url, HEALTH, undefined, ANSWER_LIMIT_MS)).status, 200);
      assert.deepEqual(
        (await fleetCalls(server!, key, 4)).map((c) => c.status),
        [200, 200, 200, 200],
      );
    }
    assert.ok(server!.alive());
  });

  it('the database refusing connections: health 503 and calls 500 at once, then recovery without a restart', async () => {
    await admin(`alter database "${database()}" allow_connections false`);
    try {
      await terminateAll();
      const [health, calls] = await Promise.all([probe(server!.url, HEALTH, undefined, ANSWER_LIMIT_MS), fleetCalls(server!, key, 20)]);
      assertUnavailable(health, calls);
      assert.ok(server!.alive());
      assert.ok(
        server!.logs.some((l) => l.msg === 'unexpected error' && typeof l.reqId === 'string'),
        'the cause is logged with the request id',
      );
    } finally {
      await admin(`alter database "${database()}" allow_connections true`);
    }
    await assertRecovered(server!, key);
  });

  it('the server going down (connections reset, new ones refused): health 503, calls 500, recovery when it is back', async () => {
    await fleetCalls(server!, key, 4);
    proxy!.setMode('reset');
    try {
      const [health, calls] = await Promise.all([probe(server!.url, HEALTH, undefined, ANSWER_LIMIT_MS), fleetCalls(server!, key, 12)]);
      assertUnavailable(health, calls);
      assert.ok(server!.alive());
    } finally {
      proxy!.setMode('forward');
    }
    await assertRecovered(server!, key);
  });

  it('the store not answering at all (a partition): calls on open connections fail after the store timeout instead of hanging', async () => {
    // Several idle pooled connections, so calls are sent on connections that then go silent: pages of
    // different sizes, which no cached answer serves, so their queries run at once on separate connections.
    const warm = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${server!.url}${FLEET}?limit=${i + 1}`, { headers: { authorization: `Bearer ${key}` } }).then(
          async (r) => (await r.arrayBuffer(), r.status),
        ),
      ),
    );
    assert.deepEqual(warm, Array(8).fill(200));
    proxy!.setMode('blackhole');
    try {
      const [health, calls] = await Promise.all([probe(server!.url, HEALTH, undefined, ANSWER_LIMIT_MS), fleetCalls(server!, key, 12)]);
      assertUnavailable(health, calls);
      assert.ok(
        server!.logs.some((l) => JSON.stringify(l).includes(`did not answer within ${STORE_TIMEOUT_MS} ms`)),
        'they gave up on the store at its timeout',
      );
      assert.ok(server!.alive());
    } finally {
      proxy!.setMode('forward');
    }
    await assertRecovered(server!, key);
  });
});
