import assert from 'node:assert/strict';
import fc from 'fast-check';
import { before, it } from 'node:test';
import { readAuditLog, type AuditQuery } from '../../src/services/audit-log.ts';
import type { AuditEntry } from '../../src/domain/audit-entry.ts';
import { auditRowText, insertAuditRows } from '../../src/store/repositories/audit-repo.ts';
import type { Db } from '../../src/store/database.ts';
import { seedPartnerRows } from '../support/sync-world.ts';
import { cli, cliChild } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';

const insertAuditEntries = (db: Db, entries: readonly AuditEntry[]) => insertAuditRows(db, entries.map(auditRowText));

const PARTNERS = ['ptn_a', 'ptn_b', null] as const;
const STATUSES = [0, 200, 204, 401, 404, 422, 429, 500, 503] as const;
const BASE = Date.parse('2026-11-01T00:00:00.000Z');
const HOUR = 3_600_000;

/** A generated audit log: each row's time on a whole hour, so since/until fall on and between rows. */
const logArb = fc.array(
  fc.record({
    hour: fc.integer({ min: 0, max: 47 }),
    partner: fc.constantFrom(...PARTNERS),
    status: fc.constantFrom(...STATUSES),
  }),
  { minLength: 40, maxLength: 60 },
);

function entries(log: { hour: number; partner: string | null; status: number }[]): AuditEntry[] {
  return log.map((r, i) => ({
    requestId: `req_${i.toString().padStart(4, '0')}`,
    at: new Date(BASE + r.hour * HOUR).toISOString(),
    partnerId: r.partner,
    keyId: r.partner ? `key_${r.partner}` : null,
    method: r.status === 0 ? 'CLI' : 'GET',
    route: '/api/v2/partners/me',
    path: '/api/v2/partners/me',
    crewUniqueId: null,
    documentId: null,
    status: r.status,
    latencyMs: i,
    clientIp: '127.0.0.1',
    traceId: i % 2 === 0 ? null : i.toString(16).padStart(32, '0'),
  }));
}

/** The obvious reading of a query, to hold the store's answer against. */
function expected(all: AuditEntry[], q: AuditQuery): string[] {
  const ordered = all.map((e, i) => ({ e, i })).sort((x, y) => (x.e.at === y.e.at ? y.i - x.i : x.e.at < y.e.at ? 1 : -1));
  return ordered
    .map(({ e }) => e)
    .filter(
      (e) =>
        (q.partnerId === undefined || e.partnerId === q.partnerId) &&
        (q.requestId === undefined || e.requestId === q.requestId) &&
        (q.since === undefined || e.at >= q.since) &&
        (q.until === undefined || e.at <= q.until) &&
        (q.status === undefined || (e.status >= q.status.from && e.status <= q.status.to)),
    )
    .slice(0, q.limit ?? 100)
    .map((e) => e.requestId);
}

const hourArb = fc.option(
  fc.integer({ min: -1, max: 48 }).map((h) => new Date(BASE + h * HOUR).toISOString()),
  { nil: undefined },
);
const queryArb = fc
  .record({
    partnerId: fc.option(fc.constantFrom('ptn_a', 'ptn_b', 'ptn_none'), { nil: undefined }),
    // A request id of the log (req_0000 to req_0039 are always there) or one it does not hold; mostly none.
    requestId: fc.option(fc.constantFrom('req_0003', 'req_0017', 'req_0039', 'req_absent'), { nil: undefined, freq: 3 }),
    since: hourArb,
    until: hourArb,
    status: fc.option(
      fc.oneof(
        fc.constantFrom(...STATUSES).map((s) => ({ from: s, to: s })),
        fc.integer({ min: 1, max: 5 }).map((c) => ({ from: c * 100, to: c * 100 + 99 })),
      ),
      { nil: undefined },
    ),
    limit: fc.option(fc.integer({ min: 1, max: 70 }), { nil: undefined }),
  })
  .filter((q) => !(q.since && q.until && q.since > q.until));

describeEachStore('reading the audit log', ({ store, url }) => {
  let log: AuditEntry[];
  before(async () => {
    log = entries(fc.sample(logArb, { numRuns: 1, seed: 42 })[0]!);
    await insertAuditEntries(store().db, log);
    // The partners exist: an admin command refuses a partner id the store does not know.
    await seedPartnerRows(store().db, 'ptn_a', 'ptn_b');
  });

  it('readAuditLog answers every combination of filters as the obvious filter does, newest first', async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, async (q) => {
        const got = (await readAuditLog(store().db, q)).map((e) => e.requestId);
        assert.deepEqual(got, expected(log, q));
      }),
      { numRuns: 60 },
    );
  });

  it('svc admin audit: --partner, --since, --until, --status, --limit, --json', async () => {
    const q = {
      partnerId: 'ptn_a',
      since: new Date(BASE + 5 * HOUR).toISOString(),
      until: new Date(BASE + 40 * HOUR).toISOString(),
      status: { from: 400, to: 499 },
      limit: 5,
    };
    const res = await cli([
      '--db',
      url(),
      'admin',
      'audit',
      '--partner',
      'ptn_a',
      '--since',
      q.since,
      '--until',
      q.until,
      '--status',
      '4xx',
      '--limit',
      '5',
      '--json',
    ]);
    assert.equal(res.code, 0, res.stderr);
    const rows = JSON.parse(res.stdout) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((r) => r.request_id),
      expected(log, q),
    );
    if (rows[0]) {
      assert.deepEqual(Object.keys(rows[0]), [
        'at',
        'request_id',
        'partner_id',
        'key_id',
        'method',
        'route',
        'path',
        'status',
        'latency_ms',
        'crew_unique_id',
        'document_id',
        'client_ip',
        'trace_id',
      ]);
    }
    const exact = await cli(['--db', url(), 'admin', 'audit', '--status', '404']);
    const lines = exact.stdout.trimEnd().split('\n');
    assert.equal(
      lines[0],
      'at\trequest_id\tpartner_id\tkey_id\tmethod\troute\tpath\tstatus\tlatency_ms\tcrew_unique_id\tdocument_id\tclient_ip\ttrace_id',
    );
    assert.deepEqual(
      lines.slice(1).map((l) => l.split('\t')[1]),
      expected(log, { status: { from: 404, to: 404 } }),
    );
  });

  it("the admin commands' own rows are there (status 0 for success)", async () => {
    assert.equal((await cli(['--db', url(), 'admin', 'issue-operator-key'])).code, 0);
    const res = await cli(['--db', url(), 'admin', 'audit', '--status', '0', '--limit', '1', '--json']);
    const [row] = JSON.parse(res.stdout) as Record<string, unknown>[];
    assert.equal(row?.route, 'svc admin issue-operator-key');
    assert.equal(row?.method, 'CLI');
    // Found again by its own request id, as an operator would find a call by the X-Request-Id a partner quotes.
    const again = await cli(['--db', url(), 'admin', 'audit', '--request', String(row?.request_id), '--json']);
    assert.deepEqual(JSON.parse(again.stdout), [row]);
  });

  it('svc admin audit --request: the one row of that request, nothing for an id never seen', async () => {
    const one = await cli(['--db', url(), 'admin', 'audit', '--request', 'req_0017', '--json']);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(
      (JSON.parse(one.stdout) as Record<string, unknown>[]).map((r) => [r.request_id, r.latency_ms]),
      [['req_0017', 17]],
    );
    const none = await cli(['--db', url(), 'admin', 'audit', '--request', 'req_absent']);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /no audit rows match/);
  });

  it('a bad --status or --limit is bad usage (64); a bad --since is invalid input (65)', async () => {
    const [status, limit, since] = await Promise.all([
      cliChild(['--db', url(), 'admin', 'audit', '--status', 'teapot']),
      cliChild(['--db', url(), 'admin', 'audit', '--limit', '-1']),
      cliChild(['--db', url(), 'admin', 'audit', '--since', 'last tuesday']),
    ]);
    assert.equal(status.code, 64, status.stderr);
    assert.match(status.stderr, /--status/);
    assert.equal(limit.code, 64, limit.stderr);
    assert.equal(since.code, 65, since.stderr);
    assert.match(since.stderr, /since "last tuesday" is not an ISO-8601/);
  });
});
