import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createApp } from '../../src/http/app.ts';
import type { SvcApp } from '../../src/http/app-deps.ts';
import { BodyCache } from '../../src/services/read-cache/body-cache.ts';
import { createReadCache, noReadCache } from '../../src/services/read-cache/read-cache.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { startTestApi, type TestApi } from '../support/http.ts';
import { NOW, startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const GETS = [
  '/api/v2/employers/me/vessels',
  '/api/v2/employers/me/fleet',
  '/api/v2/employers/me/fleet?limit=2',
  '/api/v2/employers/me/fleet?include_documents_expiring_within_days=1',
  '/api/v2/employers/me/crew/crew_ana/profile',
  '/api/v2/employers/me/crew/crew_ana/documents',
  '/api/v2/employers/me/crew/crew_cho/profile',
  '/api/v2/employers/me/crew/crew_ben/documents',
];

/** Every kind of write that changes one of the answers above, as plain SQL (the same text on both stores). */
const WRITES = {
  crewName: (n: number) => `update crew set name = 'Ana ${n}' where crew_unique_id = 'crew_ana'`,
  crewContact: (n: number) =>
    `update crew set phone = '+3519000000${n}', background_check_status = '${n % 2 ? 'clear' : 'pending'}' where crew_unique_id in ('crew_ana', 'crew_cho')`,
  expiry: (n: number) => `update documents set expiry_date = '2026-11-${22 + (n % 8)}' where document_id in ('doc_edge', 'doc_ben')`,
  withdrawn: (n: number) => `update documents set is_live = ${n % 2} where document_id = 'doc_later'`,
  processing: (n: number) =>
    `update documents set processing_state = '${n % 2 ? 'processing' : 'processed'}' where document_id = 'doc_pass'`,
  assignment: (n: number) =>
    `update assignments set status = '${['invited', 'signed_off', 'active', 'on_leave'][n % 4]}' where crew_unique_id = 'crew_ben'`,
  consentOff: (n: number) =>
    `delete from consents where crew_unique_id = '${n % 2 ? 'crew_ana' : 'crew_cho'}' and partner_id in ('ptn_full', 'ptn_basic') and category in ('documents', 'status', 'profile')`,
  consentOn: (n: number) =>
    `insert into consents (crew_unique_id, partner_id, category) values ('crew_cho', 'ptn_full', '${['status', 'profile', 'documents'][n % 3]}') on conflict do nothing`,
  vessel: (n: number) => `update vessels set vessel_name = 'MV ${n}' where vessel_id = 'ves_a1'`,
  contractOff: () => `delete from contract_vessels where vessel_id = 'ves_a1' and partner_id like 'ptn_ext_%'`,
  contractOn: () =>
    `insert into contract_vessels (partner_id, vessel_id) select partner_id, 'ves_a1' from partners where partner_id like 'ptn_ext_%' on conflict do nothing`,
} as const;

describeEachStore('body cache: a cached answer equals a freshly built one', ({ store, url }) => {
  let w: World;
  let other: Store;
  let fresh: { app: SvcApp; api: TestApi };
  let cache: BodyCache;
  let now = NOW;
  const keys: string[] = [];

  before(async () => {
    cache = new BodyCache({ maxEntries: 6 });
    // One public origin for both apps, so that their links and tags can be compared.
    w = await startWorld(store().db, {
      deps: { readCache: createReadCache(store().db, () => now, { bodies: cache }) },
      config: { publicBaseUrl: 'https://svc.example.com' },
    });
    // The reference: the same store and clock, built anew on every call.
    const app = createApp({
      db: store().db,
      config: w.config,
      clock: () => now,
      logger: pino({ level: 'silent' }),
      readCache: noReadCache(store().db, () => now),
    });
    fresh = { app, api: await startTestApi(app) };
    // Writes come from another connection, as another process or an operator's SQL would: only change capture tells the app.
    other = await openStore(url());
    keys.push(
      w.keys.full,
      w.keys.fullTest,
      w.keys.basic,
      await w.partnerWith(['vessels:fleet:read', 'crew:status:read', 'crew:documents:read', 'crew:profile:read']),
    );
  });
  after(async () => {
    await fresh.api.close();
    await fresh.app.close();
    await other.close();
    await w.close();
  });

  const compare = async (path: string, key: string, label: string) => {
    const cached = await w.api.get(path, { key });
    const built = await fresh.api.get(path, { key });
    assert.equal(cached.status, built.status, `${label}: ${path}`);
    assert.equal(cached.bytes.toString(), built.bytes.toString(), `${label}: ${path}`);
    assert.equal(cached.headers.get('etag'), built.headers.get('etag'), `${label}: ${path}`);
    return cached;
  };

  it('repeats answer from the cache, bounded in entries; If-None-Match still answers 304', async () => {
    const first = await compare(GETS[1]!, w.keys.full, 'first');
    assert.equal(first.status, 200);
    const held = cache.size;
    assert.ok(held.entries >= 1 && held.bytes >= first.bytes.length);
    assert.equal((await compare(GETS[1]!, w.keys.full, 'again')).bytes.toString(), first.bytes.toString());
    assert.equal(cache.size.entries, held.entries, 'a repeat adds nothing');
    for (const path of GETS) for (const key of keys) await compare(path, key, 'fill');
    assert.ok(cache.size.entries <= 6, `at most 6 held, not ${cache.size.entries}`);
    assert.equal((await w.api.get(GETS[1]!, { key: w.keys.full, headers: { 'If-None-Match': first.headers.get('etag')! } })).status, 304);
  });

  it('after writes of every kind, by plain SQL from another connection, and days passing, answers stay equal', async () => {
    const write = fc.oneof(
      fc.record({ kind: fc.constantFrom(...(Object.keys(WRITES) as (keyof typeof WRITES)[])), n: fc.nat(9) }),
      fc.record({ kind: fc.constant('day' as const), n: fc.nat(3) }),
    );
    const ask = fc.tuple(fc.constantFrom(...GETS), fc.nat(keys.length - 1));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(ask, { minLength: 1, maxLength: 4 }), write), { minLength: 1, maxLength: 6 }),
        async (steps) => {
          for (const [asks, step] of steps) {
            // Warm the cache with the answers the write is about to change.
            for (const [path, k] of asks) await w.api.get(path, { key: keys[k]! });
            if (step.kind === 'day') {
              now = new Date(NOW.getTime() + step.n * 86_400_000);
              w.setNow(now);
            } else {
              await sql.raw(WRITES[step.kind](step.n)).execute(other.db);
            }
            for (const [path, k] of asks) await compare(path, keys[k]!, JSON.stringify(step));
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 12) },
    );
  });
});
