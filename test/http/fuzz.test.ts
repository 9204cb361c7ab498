import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { checkComponent, openApiDocument } from '../support/openapi-check.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

/*
 * Generated requests to every route of the OpenAPI document, and to paths beside them: bodies,
 * query strings, headers and path segments. Whatever is sent, the answer is never a 5xx, always
 * has an X-Request-Id, an error is in one of the two decided shapes, and the call has exactly one
 * audit row. SVC_FUZZ_RUNS sets the number of requests per store (default 60), SVC_FUZZ_SEED replays
 * a run fast-check reported.
 */
const RUNS = Number(process.env.SVC_FUZZ_RUNS ?? 60);

/** Router-form templates (`/api/v2/…/:crew_unique_id/…`) and the method each is documented with. */
const OPERATIONS: [string, string][] = Object.entries(openApiDocument().paths as Record<string, Record<string, unknown>>).flatMap(
  ([template, item]) =>
    Object.keys(item)
      .filter((m) => m !== 'parameters')
      .map((m): [string, string] => [template, m.toUpperCase()]),
);

const segment = fc.oneof(
  {
    arbitrary: fc.constantFrom('crew_ana', 'crew_ben', 'crew_fay', 'doc_coc', 'doc_med', 'ptn_full', 'ptn_b', 'key_0000', 'swagger-ui.css'),
    weight: 4,
  },
  fc.constantFrom('..', '.', '%2e%2e', '%00', '%ff', '%', '%zz', 'a%2Fb', '~', '%F0%9F%98%80', 'x'.repeat(3000), 'eyJkIjoiZG9jIn0.AAAA'),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
);

const queryName = fc.oneof(
  fc.constantFrom('limit', 'cursor', 'include_documents_expiring_within_days', 'vessel_id', 'hard', 'since', 'after'),
  fc.string({ minLength: 1, maxLength: 10 }),
);
const queryValue = fc.oneof(
  fc.constantFrom('0', '1', '-1', '50', '200', '201', '4.5', '1e3', 'true', 'yes', '', 'abc', '99999999999999999999', 'ves_a1'),
  fc.string({ maxLength: 300 }),
);
const query = fc
  .array(fc.tuple(queryName, queryValue), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`));

/** A header value fetch accepts: visible ASCII and spaces, no leading or trailing space. */
const headerValue = fc
  .string({
    unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~'),
    maxLength: 200,
  })
  .map((v) => v.trim());

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  ';;',
);

const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        email: fc.oneof(fc.emailAddress(), fc.string()),
        url: fc.webUrl(),
        subscribed_events: fc.array(fc.string(), { maxLength: 3 }),
        Secret: fc.string(),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 500 }),
  fc.nat(3000).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.constantFrom('{', '{"email":', 'null', '"x"', '1', '{"__proto__":{"a":1}}', '\u0000', '{"a":1}garbage'),
);

/** The fields of a generated request that the hand-written examples below leave neutral. */
const SEEN = {
  method: null,
  segments: ['crew_ana', 'doc_coc', 'x'],
  extra: '',
  query: '',
  key: undefined as number | undefined,
  header: undefined,
  contentType: undefined as 'application/json' | undefined,
  body: undefined as string | undefined,
};

describeEachWorld('fuzzing every route', { catalogue: true }, (w) => {
  it(`${RUNS} generated requests: no 5xx, X-Request-Id, decided error shapes, one audit row each`, async () => {
    const keys = () => [w.keys.full, w.keys.fullTest, w.keys.basic, w.keys.operator, 'svc_live_nonsense', 'svc_pub_x'];
    const request = fc.record({
      operation: fc.constantFrom(...OPERATIONS),
      method: fc.oneof(fc.constant(null), fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS')),
      segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
      extra: fc.oneof(
        { arbitrary: fc.constant(''), weight: 5 },
        segment.map((s) => `/${s}`),
      ),
      query,
      key: fc.oneof(fc.constant(undefined), { arbitrary: fc.nat(5), weight: 4 }, headerValue),
      header: fc.oneof(
        fc.constant(undefined),
        fc.tuple(
          fc.constantFrom(
            'X-Partner-API-Key',
            'Authorization',
            'Accept',
            'X-Request-Id',
            'X-Forwarded-For',
            'Content-Encoding',
            'If-None-Match',
          ),
          headerValue,
        ),
      ),
      contentType,
      body,
    });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        let i = 0;
        const path = r.operation[0].replace(/\{[^}]+\}/g, () => r.segments[i++]!) + r.extra + r.query;
        const method = r.method ?? r.operation[1];
        const headers: Record<string, string> = {};
        if (typeof r.key === 'number') headers.Authorization = `Bearer ${keys()[r.key]}`;
        else if (typeof r.key === 'string') headers.Authorization = r.key;
        if (r.header) headers[r.header[0]] = r.header[1];
        if (r.contentType) headers['Content-Type'] = r.contentType;
        const sendsBody = r.body !== undefined && method !== 'GET' && method !== 'HEAD';
        const res = await fetch(`${w.api.url}${path}`, { method, headers, body: sendsBody ? r.body : undefined });
        const text = await res.text();
        const what = `${method} ${path.slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        assert.ok(res.status < 500, what);
        const requestId = res.headers.get('x-request-id') ?? '';
        assert.match(requestId, /^req_[0-9a-f]{24}$/, what);
        if (res.status >= 400 && method !== 'HEAD') {
          const json = JSON.parse(text);
          checkComponent(res.status === 422 ? 'ValidationError' : 'Error', json);
          if (res.status === 422) {
            for (const issue of json.detail)
              assert.deepEqual(
                Object.keys(issue),
                ['type', 'loc', 'msg', 'input', 'ctx'].filter((k) => k in issue),
                what,
              );
          }
        }
        // The row is queued before the answer leaves (src/http/middleware/audit.ts): flushed, it is in the store.
        const rows = await w.auditOf(requestId);
        assert.equal(rows.length, 1, `${what}: audit rows`);
        assert.equal(rows[0]!.status, res.status, `${what}: audited status`);
      }),
      {
        numRuns: RUNS,
        ...(process.env.SVC_FUZZ_SEED ? { seed: Number(process.env.SVC_FUZZ_SEED) } : {}),
        // Run first, so that every run reaches past the gates at least once: a success, a 422, a 401.
        examples: [
          [
            {
              ...SEEN,
              operation: ['/api/v2/employers/me/crew/lookup', 'POST'] as [string, string],
              key: 0,
              contentType: 'application/json',
              body: '{"email":"ana.silva@example.com"}',
            },
          ],
          [{ ...SEEN, operation: ['/api/v2/employers/me/fleet', 'GET'] as [string, string], key: 0, query: '?limit=0&cursor=x' }],
          [{ ...SEEN, operation: ['/api/v2/partners/me', 'GET'] as [string, string] }],
        ],
      },
    );
    for (const status of [200, 401, 422]) assert.ok(statuses.has(status), `statuses ${JSON.stringify([...statuses])}`);
    if (process.env.SVC_FUZZ_RUNS) console.log(`fuzz statuses: ${JSON.stringify([...statuses].sort((a, b) => a[0] - b[0]))}`);
  });
});
