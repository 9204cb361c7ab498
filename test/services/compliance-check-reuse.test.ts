import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { ComplianceCheckWire } from '../../src/domain/compliance/index.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { runComplianceCheck, type CheckDeps } from '../../src/services/read-api/compliance.ts';
import { verifyToken } from '../../src/services/read-api/signed-token.ts';
import { createReadCache, noReadCache } from '../../src/services/read-cache/read-cache.ts';
import type { PartnerContext } from '../../src/services/visibility/partner-context.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { replaceConsents } from '../../src/store/repositories/reference-data-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';

const TTL = 900;
const LINK_KEY = Buffer.alloc(32, 7);
const FILES = /\/api\/v2\/files\/([A-Za-z0-9_.-]+)/g;

/** Writes that change the answer, as plain SQL from another connection (the same text on both stores). */
const WRITES = {
  expiry: (n: number) => `update documents set expiry_date = '2027-0${1 + (n % 9)}-15' where document_id = 'doc_new'`,
  file: (n: number) =>
    `update documents set file_id = ${n % 2 ? 'null' : `(select file_id from files limit 1)`} where document_id = 'doc_new'`,
  verification: (n: number) =>
    `update documents set verification_status = '${n % 2 ? 'unverified' : 'verified'}' where document_id = 'doc_new'`,
  role: (n: number) => `update assignments set role = '${['master', 'chief_officer', 'cook'][n % 3]}' where crew_unique_id = 'crew_1'`,
} as const;

/** The link tokens of an answer, and its JSON with each replaced by `{token}`. */
function tokensOf(answer: ComplianceCheckWire): { tokens: string[]; rest: string } {
  const text = JSON.stringify(answer);
  const tokens = [...text.matchAll(FILES)].map((m) => m[1]!);
  return { tokens, rest: text.replace(FILES, '/api/v2/files/{token}') };
}

describeEachStore('compliance check answers through the read cache', ({ store, url }) => {
  let other: Store;
  let now = new Date('2026-11-22T10:00:00.000Z');
  const clock = () => now;
  const catalogue = new CatalogueCache(clock);

  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json', writeFixture(miniFixture())], clock);
    await replaceConsents(store().db, 'crew_1', 'ptn_a', ['status', 'documents', 'compliance']);
    other = await openStore(url());
  });
  after(() => other.close());

  it('equal the answer built from the store, links signed at the call', async () => {
    const db = store().db;
    const partner = (await findPartner(db, 'ptn_a'))!;
    const base: Omit<CheckDeps, 'crewAccess' | 'evaluate'> = {
      clock,
      catalogue,
      windowDays: 90,
      deadlineMs: 10_000,
      fault: 'none',
      results: { save: async () => {}, latest: () => Promise.resolve(undefined) },
    };
    const cached = createReadCache(db, clock);
    const plain = noReadCache(db, clock);
    const scopeSets = [
      ['crew:compliance:read', 'crew:medical:read', 'crew:documents:download'],
      ['crew:compliance:read', 'crew:documents:download'],
      ['crew:compliance:read'],
    ];
    const check = (deps: CheckDeps, scopes: string[], keyId: string) => {
      const ctx: PartnerContext = { partner, mode: 'live', keyId, scopes: new Set(scopes) as PartnerContext['scopes'] };
      return runComplianceCheck(db, ctx, 'crew_1', {}, deps, { key: LINK_KEY, now: clock(), ttlSeconds: TTL, baseUrl: 'http://svc.test' });
    };
    const step = fc.oneof(
      fc.record({ kind: fc.constantFrom(...(Object.keys(WRITES) as (keyof typeof WRITES)[])), n: fc.nat(8) }),
      fc.record({ kind: fc.constant('seconds' as const), n: fc.integer({ min: 0, max: 30 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 8 }),
        fc.nat(2),
        fc.constantFrom('key_1', 'key_2'),
        async (steps, s, keyId) => {
          for (const st of steps) {
            await check({ ...base, ...(await cached.checkReads()) }, scopeSets[s]!, keyId);
            if (st.kind === 'seconds') now = new Date(now.getTime() + st.n * 1000);
            else await sql.raw(WRITES[st.kind](st.n)).execute(other.db);
            const reused = tokensOf(await check({ ...base, ...(await cached.checkReads()) }, scopeSets[s]!, keyId));
            const fresh = tokensOf(await check({ ...base, ...(await plain.checkReads()) }, scopeSets[s]!, keyId));
            assert.equal(reused.rest, fresh.rest, JSON.stringify(st));
            assert.equal(reused.tokens.length, fresh.tokens.length);
            const nowSeconds = Math.floor(now.getTime() / 1000);
            for (const token of reused.tokens) {
              const claims = verifyToken(LINK_KEY, token)!;
              assert.equal(claims.k, keyId);
              assert.equal(claims.e, nowSeconds + TTL, 'signed at the call, valid for the TTL');
            }
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 15) },
    );
  });
});
