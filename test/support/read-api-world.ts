import { after, afterEach, before } from 'node:test';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import type { AppDeps, RouteModule } from '../../src/http/app-deps.ts';
import { issueOperatorKey, issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import type { Database } from '../../src/store/database.ts';
import type { AuditEntry } from '../../src/domain/audit-entry.ts';
import { findAuditEntries } from '../../src/store/repositories/audit-repo.ts';
import { replaceConsents, replaceContractVessels, upsertPartners } from '../../src/store/repositories/reference-data-repo.ts';
import { startTestApi, type TestApi } from './http.ts';
import { capturingLogger, type LogCapture } from './log-capture.ts';
import { writeFixture } from './mini-fixture.ts';
import { describeEachStore } from './stores.ts';
import { deliveryDepsFromConfig } from '../../src/sync/delivery/delivery-deps.ts';
import { webhookTester as testEventSender } from '../../src/sync/test-event.ts';

/** "Today" of the read API tests: 2026-11-22, UTC. */
export const TODAY = '2026-11-22';
export const NOW = new Date(`${TODAY}T10:00:00.000Z`);

const ALL = ['status', 'profile', 'documents', 'compliance'];
const doc = (id: string, crew: string, expiry: string | null, extra: Record<string, unknown> = {}) => ({
  document_id: id,
  crew_unique_id: crew,
  type: 'certificate',
  category: 'training',
  title: `Title of ${id}`,
  verification_status: 'verified',
  expiry_date: expiry,
  file: 'files/doc.pdf',
  classification: { document_class: 'training', category_code: 'bst' },
  ...extra,
});

/** Documents of crew_ana: the listable ones and one of every excluded state, all expiring within 30 days. */
export const ANA_LISTED = ['doc_coc', 'doc_edge', 'doc_expired', 'doc_later', 'doc_nofile', 'doc_pass', 'doc_today'];
export const ANA_MEDICAL = ['doc_med'];
export const ANA_EXCLUDED = [
  'doc_processing',
  'doc_rejected',
  'doc_duplicate',
  'doc_placeholder',
  'doc_legacy',
  'doc_withdrawn',
  'doc_old',
];

/**
 * A small, deliberate data set. Partner ptn_full (management tier) has employer emp_a: live
 * vessels ves_a1 and ves_a2 and test vessel ves_at. Partner ptn_b has emp_b with ves_b1.
 * crew_ana (ves_a1, active, every consent, full profile and documents), crew_ben (ves_a1, invited,
 * no consent), crew_cho (ves_a2, on_leave, status consent only), crew_dan (ves_a1, signed_off: not
 * on the fleet), crew_eve (ves_at, test data, every consent), crew_fay (ves_b1, partner B's).
 */
export function worldFixture(): Record<string, unknown> {
  const vessel = (id: string, employer: string, extra: Record<string, unknown> = {}) => ({
    vessel_id: id,
    employer_id: employer,
    vessel_name: `MV ${id}`,
    imo: '9074729',
    mmsi: '235000001',
    flag_state: 'GB',
    vessel_type: 'bulk_carrier',
    gross_tonnage: 30000,
    propulsion_kw: 9000,
    ...extra,
  });
  const asg = (crew: string, vessel: string, status: string) => ({
    crew_unique_id: crew,
    vessel_id: vessel,
    role: 'master',
    status,
    as_of: '2026-10-01T00:00:00Z',
  });
  return {
    employers: [
      { employer_id: 'emp_a', name: 'Alpha' },
      { employer_id: 'emp_b', name: 'Bravo' },
    ],
    vessels: [
      vessel('ves_a1', 'emp_a'),
      vessel('ves_a2', 'emp_a', { imo: null, mmsi: null }),
      vessel('ves_at', 'emp_a', { is_test: true }),
      vessel('ves_b1', 'emp_b'),
    ],
    partners: [
      { partner_id: 'ptn_full', name: 'Full Management', kind: 'customer', employer_id: 'emp_a', tier: 'management' },
      { partner_id: 'ptn_b', name: 'Bravo Management', kind: 'customer', employer_id: 'emp_b', tier: 'recruiter' },
      { partner_id: 'ptn_basic', name: 'Basic', kind: 'customer', employer_id: 'emp_a', tier: 'basic' },
    ],
    crew: [
      {
        crew_unique_id: 'crew_ana',
        name: 'Ana Silva',
        rank: 'Master',
        email: 'Ana.Silva@Example.com',
        phone: '+351912345678',
        country_code: 'PT',
        nationality: 'PT',
        languages: ['pt', 'en'],
        skills: ['ecdis'],
        years_experience: 12,
        bio: 'Master mariner',
        date_of_birth: '1980-02-03',
        address: { line1: null, city: 'Lisbon', region: 'Lisboa', postal_code: '1100-001', country_code: 'PT' },
        passport: { number: 'P123', issuing_country: 'PT', expiry_date: '2030-01-01' },
        visas: [{ type: 'C1/D', country_code: 'US', number: 'V1', expiry_date: '2028-01-01' }],
        employment_history: [
          {
            employer_name: 'Alpha',
            vessel_name: 'MV ves_a1',
            role: 'master',
            start_date: '2020-01-01',
            end_date: null,
            source: 'employer_verified',
          },
        ],
        photo: 'files/photo.png',
        background_check_status: 'clear',
      },
      { crew_unique_id: 'crew_ben', name: 'Ben Okafor', email: 'ben@example.com' },
      { crew_unique_id: 'crew_cho', name: 'Cho Min', background_check_status: 'pending' },
      { crew_unique_id: 'crew_dan', name: 'Dan Berg', email: 'dan@example.com' },
      { crew_unique_id: 'crew_eve', name: 'Eve Test', email: 'eve@example.com' },
      { crew_unique_id: 'crew_fay', name: 'Fay Bravo', email: 'fay@example.com' },
    ],
    assignments: [
      asg('crew_ana', 'ves_a1', 'active'),
      asg('crew_ben', 'ves_a1', 'invited'),
      asg('crew_cho', 'ves_a2', 'on_leave'),
      asg('crew_dan', 'ves_a1', 'signed_off'),
      asg('crew_eve', 'ves_at', 'active'),
      asg('crew_fay', 'ves_b1', 'active'),
    ],
    consents: [
      { crew_unique_id: 'crew_ana', partner_id: 'ptn_full', categories: ALL },
      { crew_unique_id: 'crew_ana', partner_id: 'ptn_basic', categories: ALL },
      { crew_unique_id: 'crew_cho', partner_id: 'ptn_full', categories: ['status'] },
      { crew_unique_id: 'crew_dan', partner_id: 'ptn_full', categories: ALL },
      { crew_unique_id: 'crew_eve', partner_id: 'ptn_full', categories: ALL },
      { crew_unique_id: 'crew_fay', partner_id: 'ptn_b', categories: ALL },
      { crew_unique_id: 'crew_fay', partner_id: 'ptn_full', categories: ALL },
    ],
    documents: [
      doc('doc_coc', 'crew_ana', '2026-12-10', { classification: { document_class: 'coc', category_code: 'coc' } }),
      doc('doc_med', 'crew_ana', '2026-12-01', {
        category: 'medical',
        classification: { document_class: 'medical', category_code: 'medical_fitness' },
      }),
      doc('doc_today', 'crew_ana', TODAY),
      doc('doc_edge', 'crew_ana', '2026-12-22'),
      doc('doc_later', 'crew_ana', '2026-12-23'),
      doc('doc_expired', 'crew_ana', '2026-11-21'),
      doc('doc_pass', 'crew_ana', null, { no_expiry: true, classification: { document_class: 'identity', category_code: 'passport' } }),
      doc('doc_nofile', 'crew_ana', '2029-01-01', { file: null }),
      doc('doc_processing', 'crew_ana', '2026-12-02', { processing_state: 'processing' }),
      doc('doc_rejected', 'crew_ana', '2026-12-02', { processing_state: 'rejected' }),
      doc('doc_duplicate', 'crew_ana', '2026-12-02', { processing_state: 'duplicate' }),
      doc('doc_placeholder', 'crew_ana', '2026-12-02', { processing_state: 'placeholder' }),
      doc('doc_legacy', 'crew_ana', '2026-12-02', { processing_state: 'legacy' }),
      doc('doc_withdrawn', 'crew_ana', '2026-12-02', { is_live: false }),
      doc('doc_old', 'crew_ana', '2026-12-02', { is_current: false, superseded_by: 'doc_coc' }),
      doc('doc_ben', 'crew_ben', '2026-12-01'),
      doc('doc_eve', 'crew_eve', '2026-12-01'),
      doc('doc_fay', 'crew_fay', '2026-12-01'),
    ],
  };
}

/** Keys by name: the world's own (absent with a custom fixture) and any added by partnerWith. */
export type KeyNames = { full: string; fullTest: string; b: string; basic: string; operator: string } & Record<string, string>;

/** Everything a read API test needs: the app on a port, keys by name, a movable clock. */
export interface World {
  api: TestApi;
  db: Kysely<Database>;
  config: Config;
  keys: KeyNames;
  keyIds: KeyNames;
  /** Sets the app's clock. */
  setNow(at: Date): void;
  /** Resolves once the audit rows of every call answered so far are in the store. */
  flushAudit(): Promise<void>;
  /** Resolves once the compliance results of every check answered so far are in the store (they are written behind the call). */
  flushResults(): Promise<void>;
  /** The audit rows of one request id, once every row so far is written. */
  auditOf(requestId: string): Promise<AuditEntry[]>;
  /** An external partner on ves_a1 (+ ves_at) with exactly these contract scopes and crew_ana's consents; returns its live key. */
  partnerWith(scopes: string[], consents?: string[], options?: { rateLimit?: number }): Promise<string>;
  /** The app's log (unless the test passed its own `logger`): a warning or error no test expected fails `close`. */
  log: LogCapture;
  /** Closes the app, then fails if its log shows a warning or error nobody expected. */
  close(): Promise<void>;
}

let externalCount = 0;

/** How a world differs from the default one. */
export interface WorldOptions {
  config?: Partial<Config>;
  modules?: readonly RouteModule[];
  fixture?: Record<string, unknown>;
  /** The app's logger, for a test that reads the lines itself; otherwise the world's `log` is used. */
  logger?: Logger;
  /** Services to use instead of the app's own (an audit service, an authenticator). */
  deps?: Partial<AppDeps>;
  /** Load the shipped requirement catalogue (data/requirements.json) before the data set. */
  catalogue?: boolean;
}

export async function startWorld(db: Kysely<Database>, options: WorldOptions = {}): Promise<World> {
  let now = NOW;
  const clock = () => now;
  if (options.catalogue) await loadFixtures(db, ['data/requirements.json'], clock);
  await loadFixtures(db, [writeFixture(options.fixture ?? worldFixture())], clock);
  const config = loadConfig({}, { rateLimitDefault: 1_000_000, ...options.config });
  const log = capturingLogger('warn');
  // The operator's test delivery wired as svc serve wires it (src/cli/commands/serve.ts).
  const webhookTester = testEventSender(db, deliveryDepsFromConfig(config, { clock, wallClock: () => new Date() }));
  const app = createApp({ db, config, clock, logger: options.logger ?? log.logger, webhookTester, ...options.deps }, options.modules);
  const api = await startTestApi(app);
  const keys = {} as KeyNames;
  const keyIds = {} as KeyNames;
  const issue = async (name: string, partner: string, mode: 'live' | 'test') => {
    const k = await issuePartnerKey(db, partner, mode, clock);
    keys[name] = k.key;
    keyIds[name] = k.record.keyId;
    return k.key;
  };
  if (!options.fixture) {
    await issue('full', 'ptn_full', 'live');
    await issue('fullTest', 'ptn_full', 'test');
    await issue('b', 'ptn_b', 'live');
    await issue('basic', 'ptn_basic', 'live');
  }
  const op = await issueOperatorKey(db, clock, { label: 'tests' });
  keys.operator = op.key;
  keyIds.operator = op.record.keyId;
  return {
    api,
    db,
    config,
    keys,
    keyIds,
    log,
    setNow: (at) => {
      now = at;
    },
    flushAudit: () => app.services.audit.flush(),
    flushResults: () => app.services.complianceResults.flush(),
    async auditOf(requestId) {
      await app.services.audit.flush();
      return findAuditEntries(db, requestId);
    },
    async partnerWith(scopes, consents = ALL, opts = {}) {
      const id = `ptn_ext_${++externalCount}`;
      await upsertPartners(db, [
        {
          partner_id: id,
          name: `External ${externalCount}`,
          kind: 'external',
          employer_id: null,
          tier: null,
          scope_overrides: null,
          upgraded: 0,
          contract_scopes: JSON.stringify(scopes),
          rate_limit: opts.rateLimit ?? null,
          created_at: NOW.toISOString(),
        },
      ]);
      await replaceContractVessels(db, id, ['ves_a1', 'ves_at']);
      await replaceConsents(db, 'crew_ana', id, consents as never);
      return issue(id, id, 'live');
    },
    close: async () => {
      await api.close();
      await app.close();
      log.check("the world's close");
    },
  };
}

type StoreContext = Parameters<Parameters<typeof describeEachStore>[1]>[0];

/**
 * `describeEachStore` with a world started before its tests and closed after them; the tests
 * read it through `w`, filled in before the first one runs.
 *
 *   describeEachWorld('crew lookup', (w) => { it('…', async () => { await w.api.get(…); }); });
 *   describeEachWorld('file links', { config: { … } }, (w, { store }) => { … });
 */
export function describeEachWorld(name: string, body: (w: World, ctx: StoreContext) => void): void;
export function describeEachWorld(name: string, options: WorldOptions, body: (w: World, ctx: StoreContext) => void): void;
export function describeEachWorld(
  name: string,
  a: WorldOptions | ((w: World, ctx: StoreContext) => void),
  b?: (w: World, ctx: StoreContext) => void,
): void {
  const [options, body] = typeof a === 'function' ? [{}, a] : [a, b!];
  describeEachStore(name, (ctx) => {
    const w = {} as World;
    before(async () => {
      Object.assign(w, await startWorld(ctx.store().db, options));
    });
    // Checked after each test, so the test that caused an unexpected warning is the one that fails.
    afterEach(() => w.log?.check());
    body(w, ctx);
    // After the body's own `after` hooks, which may still use the world.
    after(async () => w.close?.());
  });
}

/**
 * Two apps over one store with the requirement catalogue loaded: `live` evaluates, `down`'s
 * evaluator fails (SVC_COMPLIANCE_FAULT=fail), for tests of the stored-result fallback. Call inside
 * a describe block: both are started before its tests and closed after them.
 */
export function liveAndDownWorlds(db: () => Kysely<Database>): { live: () => World; down: () => World } {
  let live: World | undefined;
  let down: World | undefined;
  before(async () => {
    await loadFixtures(db(), ['data/requirements.json'], () => NOW);
    live = await startWorld(db());
    down = await startWorld(db(), { config: { complianceFault: 'fail' } });
  });
  after(async () => {
    await live?.close();
    await down?.close();
  });
  return { live: () => live!, down: () => down! };
}
