import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { writeBulkDocumentsFixture } from '../support/bulk-fixture.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { eventually, probe, type Probe } from '../support/probe.ts';
import { NOW, worldFixture } from '../support/read-api-world.ts';
import { startServeChild, type ServeChild } from '../support/serve-child.ts';
import { describeEachStore } from '../support/stores.ts';
import { spawnSvc } from '../support/svc-child.ts';

/** Documents `svc fixtures load` writes: 50,000 (about 20 s per store), SVC_TEST_LOAD_DOCS=150000 for the issue's full load (bench/load-beside-traffic.ts measures that). */
const DOCUMENTS = Number(process.env.SVC_TEST_LOAD_DOCS ?? 50_000);
/** Callers running at once, each one call after another until the load has finished. */
const CALLERS = 4;
/** A bound on the loop, whatever happens to the load. */
const MAX_CALLS = 20_000;
const PATHS = [
  '/api/v2/employers/me/fleet',
  '/api/v2/partners/me',
  '/api/v2/employers/me/crew/crew_ana/profile',
  '/api/v2/employers/me/crew/crew_ana/documents',
  '/api/v2/employers/me/vessels',
];

// docs/api.md, "Running the server": read calls do not need the write lock (the rate limit and the
// audit log write in the background), so a long load into the served store fails nothing.
describeEachStore(`svc fixtures load writes ${DOCUMENTS} documents into the served store while partners call`, ({ store, url }) => {
  let server: ServeChild | undefined;
  let key = '';

  before(async () => {
    await loadFixtures(store().db, [writeFixture(worldFixture())], () => NOW);
    key = (await issuePartnerKey(store().db, 'ptn_full', 'live', () => NOW)).key;
    server = await startServeChild(url(), { SVC_RATE_LIMIT: '1000000' });
    // Warm: the signing secret is created by the first call that needs one.
    assert.equal((await probe(server.url, PATHS[0]!, key)).status, 200);
  });

  after(async () => {
    await server?.stop();
  });

  it('every call is answered without a 5xx and gets its audit row; the load completes', async () => {
    const bulk = writeBulkDocumentsFixture(DOCUMENTS);
    try {
      const load = spawnSvc(['fixtures', 'load', '--db', url(), bulk.path]);
      let loading = true;
      const loadEnded = load.exited.then((r) => {
        loading = false;
        return r;
      });
      const calls: Probe[] = [];
      await Promise.all(
        Array.from({ length: CALLERS }, async (_, w) => {
          for (let i = w; loading && calls.length < MAX_CALLS; i += CALLERS)
            calls.push(await probe(server!.url, PATHS[i % PATHS.length]!, key, 30_000));
        }),
      );
      const [code] = await loadEnded;
      assert.equal(code, 0, `svc fixtures load failed: ${load.stderr()}`);
      assert.match(load.stdout(), new RegExp(`: ${bulk.crew} crew, ${DOCUMENTS} documents\\n$`));
      assert.ok(calls.length >= CALLERS * 5, `only ${calls.length} calls answered while the load ran`);

      assert.deepEqual(
        calls.filter((c) => c.status !== 200).map((c) => [c.status, c.json]),
        [],
      );
      const ids = new Set(calls.map((c) => c.headers.get('x-request-id')!));
      // The store holds no other calls than these and the warm-up: read every row, match in memory.
      const rowsOf = async () =>
        (await store().db.selectFrom('audit_log').select(['request_id', 'status']).execute()).filter((r) => ids.has(r.request_id));
      await eventually('every call has its audit row', async () => (await rowsOf()).length >= calls.length, 60_000);
      const rows = await rowsOf();
      assert.equal(rows.length, calls.length, 'one row per call');
      assert.equal(new Set(rows.map((r) => r.request_id)).size, calls.length, 'no call recorded twice');
      assert.ok(rows.every((r) => r.status === 200));

      const { n } = await store()
        .db.selectFrom('documents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', 'like', 'bulk_doc_%')
        .executeTakeFirstOrThrow();
      assert.equal(Number(n), DOCUMENTS, 'the load wrote every document');
      assert.ok(server!.alive());
      assert.equal(server!.stderr(), '');
    } finally {
      bulk.dispose();
    }
  });
});
