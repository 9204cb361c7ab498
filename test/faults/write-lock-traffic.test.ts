import assert from 'node:assert/strict';
import { it } from 'node:test';
import pLimit from 'p-limit';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { NOW, worldFixture } from '../support/read-api-world.ts';
import { createSqliteStoreUrl, type TestStore } from '../support/stores.ts';
import { holdWriteLockElsewhere } from '../support/lock-holder-child.ts';
import { eventually, probe } from '../support/probe.ts';
import { startServeChild, type ServeChild } from '../support/serve-child.ts';

/** How long the other process holds the write lock (issue: "for 10 s"). */
const LOCK_MS = 10_000;
const CALLS = 200;
const CONCURRENT = 8;
const PATHS = [
  '/api/v2/employers/me/fleet',
  '/api/v2/partners/me',
  '/api/v2/employers/me/crew/crew_ana/profile',
  '/api/v2/employers/me/crew/crew_ana/documents',
  '/api/v2/employers/me/vessels',
];

// Rate-limit counts and audit rows are written off the request path, so a writer elsewhere (a long
// `svc fixtures load`, an open sqlite3 shell) delays them and fails nothing.
it('another process holds the SQLite write lock for 10 s while 200 calls run: none fails, every call gets its audit row', async () => {
  let test: TestStore | undefined;
  let store: Store | undefined;
  let server: ServeChild | undefined;
  try {
    test = await createSqliteStoreUrl();
    store = await openStore(test.url);
    await migrateToLatest(store.db);
    await loadFixtures(store.db, [writeFixture(worldFixture())], () => NOW);
    const key = (await issuePartnerKey(store.db, 'ptn_full', 'live', () => NOW)).key;
    server = await startServeChild(test.url, { SVC_RATE_LIMIT: '100000' });
    // Warm: the signing secret is created by the first call that needs one.
    assert.equal((await probe(server.url, PATHS[0]!, key)).status, 200);

    const holder = await holdWriteLockElsewhere(test.url.slice('sqlite:'.length), LOCK_MS);
    // The holder took the lock before this instant and keeps it LOCK_MS from then at least.
    const surelyLockedUntil = performance.now() + LOCK_MS / 2;
    const limit = pLimit(CONCURRENT);
    let answeredWhileLocked = 0;
    const calls = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        limit(async () => {
          const call = await probe(server!.url, PATHS[i % PATHS.length]!, key, LOCK_MS);
          if (performance.now() < surelyLockedUntil) answeredWhileLocked++;
          return call;
        }),
      ),
    );
    // All 200 at an idle machine; a loaded one (load 30 on 2 cores) needs more than 10 s for them.
    // A call waiting for the lock would be answered only after it: not even the first round would count.
    assert.ok(answeredWhileLocked >= CONCURRENT, `${answeredWhileLocked} calls answered while the lock was surely held`);
    assert.deepEqual(
      calls.filter((c) => c.status !== 200).map((c) => [c.status, c.json]),
      [],
    );
    const ids = calls.map((c) => c.headers.get('x-request-id')!);
    await holder.exited;
    await eventually(
      'every call has its audit row',
      async () => {
        const rows = await store!.db.selectFrom('audit_log').select('request_id').where('request_id', 'in', ids).execute();
        return rows.length === CALLS;
      },
      30_000,
    );
    const rows = await store.db.selectFrom('audit_log').select(['request_id', 'status']).where('request_id', 'in', ids).execute();
    assert.equal(new Set(rows.map((r) => r.request_id)).size, CALLS, 'one row per call, none repeated');
    assert.ok(rows.every((r) => r.status === 200));
    assert.ok(server.alive());
    assert.equal(server.stderr(), '');
  } finally {
    await server?.stop();
    await store?.close();
    await test?.dispose();
  }
});
