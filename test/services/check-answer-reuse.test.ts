import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { toComplianceWire, type ComplianceCheckWire } from '../../src/domain/compliance/index.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import type { LiveEvaluation } from '../../src/services/compliance/check-compliance.ts';
import { dataVersionReader } from '../../src/services/data-version.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { VersionedCache } from '../../src/services/plumbing/versioned-cache.ts';
import { CheckAnswers, joinCheckText, LINK_REUSE_SECONDS, splitCheckText } from '../../src/services/read-api/check-answer.ts';
import { runComplianceCheck, type CheckDeps } from '../../src/services/read-api/compliance.ts';
import { verifyToken } from '../../src/services/read-api/signed-token.ts';
import type { CrewAccess } from '../../src/services/visibility/access.ts';
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

/** The link tokens of an answer (UTF-8 JSON), and the answer with each replaced by `{token}`. */
function tokensOf(json: Buffer): { tokens: string[]; rest: string } {
  const text = json.toString('utf8');
  const tokens = [...text.matchAll(FILES)].map((m) => m[1]!);
  return { tokens, rest: text.replace(FILES, '/api/v2/files/{token}') };
}

describeEachStore('compliance check answers rendered once per evaluation and reader', ({ store, url }) => {
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

  it('equal the answer rendered afresh, but for links signed at most LINK_REUSE_SECONDS before, never past their expiry', async () => {
    const db = store().db;
    const partner = (await findPartner(db, 'ptn_a'))!;
    const version = dataVersionReader(db);
    const base: CheckDeps = {
      clock,
      catalogue,
      windowDays: 90,
      deadlineMs: 10_000,
      fault: 'none',
      results: { save: async () => {}, latest: async () => undefined },
    };
    const reuse = {
      version,
      evaluations: new VersionedCache<LiveEvaluation>(),
      crewAccess: new VersionedCache<CrewAccess>(),
      answers: new CheckAnswers(),
    };
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
      fc.record({ kind: fc.constant('seconds' as const), n: fc.integer({ min: 0, max: 3 * LINK_REUSE_SECONDS }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 8 }),
        fc.nat(2),
        fc.constantFrom('key_1', 'key_2'),
        async (steps, s, keyId) => {
          for (const st of steps) {
            await check({ ...base, reuse }, scopeSets[s]!, keyId);
            if (st.kind === 'seconds') now = new Date(now.getTime() + st.n * 1000);
            else await sql.raw(WRITES[st.kind](st.n)).execute(other.db);
            const reused = tokensOf(await check({ ...base, reuse }, scopeSets[s]!, keyId));
            const fresh = tokensOf(await check(base, scopeSets[s]!, keyId));
            assert.equal(reused.rest, fresh.rest, JSON.stringify(st));
            assert.equal(reused.tokens.length, fresh.tokens.length);
            const nowSeconds = Math.floor(now.getTime() / 1000);
            for (const token of reused.tokens) {
              const claims = verifyToken(LINK_KEY, token)!;
              assert.equal(claims.k, keyId);
              assert.ok((claims.e as number) <= nowSeconds + TTL, 'not valid longer than the TTL');
              assert.ok(
                (claims.e as number) >= nowSeconds + TTL - LINK_REUSE_SECONDS,
                `signed at most ${LINK_REUSE_SECONDS} s before the call`,
              );
            }
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 15) },
    );
  });
});

it("the answer's text in two parts around as_of joins to the JSON of the whole answer, byte for byte", () => {
  const text = fc.string({ unit: 'binary' });
  const wire = fc.record({
    crew_unique_id: text,
    vessel_id: fc.option(text),
    position_name: fc.option(text),
    as_of: fc.constant('2026-11-22T10:00:00.000Z'),
    on: text,
    overall_status: fc.constantFrom('compliant' as const, 'at_risk' as const),
    compliance_source: fc.constant('live_evaluator' as const),
    summary: fc.record({ total: fc.nat(), met: fc.nat(), expiring: fc.nat(), expired: fc.nat(), missing: fc.nat(), pending: fc.nat() }),
    requirements: fc.array(fc.record({ key: text, title: fc.option(text) }), { maxLength: 3 }),
  });
  fc.assert(
    fc.property(wire, fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(Date.UTC(9999, 0)) }), (w, at) => {
      const asOf = at.toISOString();
      assert.deepEqual(
        joinCheckText(splitCheckText(w as unknown as ComplianceCheckWire), asOf),
        Buffer.from(JSON.stringify(toComplianceWireLike(w as unknown as ComplianceCheckWire, asOf))),
      );
    }),
  );
});

// What toComplianceWire gives for these fields: the same object with as_of in wire time.
function toComplianceWireLike(w: ComplianceCheckWire, asOf: string): ComplianceCheckWire {
  const rendered = toComplianceWire(
    {
      vesselId: w.vessel_id as string,
      positionName: w.position_name,
      overallStatus: w.overall_status,
      summary: w.summary,
      requirements: [],
    },
    {
      asOf,
      crewUniqueId: w.crew_unique_id,
      source: w.compliance_source,
      medicalVisible: true,
      downloadPath: () => null,
      on: w.on!,
    },
  );
  return { ...rendered, requirements: w.requirements };
}
