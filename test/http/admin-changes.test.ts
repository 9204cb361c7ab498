import assert from 'node:assert/strict';
import { it } from 'node:test';
import { issueOperatorKey } from '../../src/services/api-keys.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import { parseRawResponse, rawExchange } from '../support/raw-http.ts';
import { NOW, describeEachWorld } from '../support/read-api-world.ts';

const PATH = '/api/v2/admin/changes';
const ndjson = (...lines: Array<object | string>) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

const crew = (id: string, version: number, data: Record<string, unknown> = {}) => ({
  entity: 'crew',
  op: 'upsert',
  id,
  version,
  data: { name: 'Hana Http', rank: 'Master', email: 'hana@example.com', ...data },
});
const document = (id: string, crewId: string, version: number, data: Record<string, unknown> = {}) => ({
  entity: 'document',
  op: 'upsert',
  id,
  version,
  data: {
    crew_unique_id: crewId,
    type: 'certificate',
    category: 'training',
    title: 'Basic Safety Training',
    verification_status: 'verified',
    issue_date: '2025-01-01',
    expiry_date: '2030-01-01',
    classification: { document_class: 'training', category_code: 'bst' },
    ...data,
  },
});

describeEachWorld('POST /api/v2/admin/changes', (w) => {
  const post = (body: string | object, options: { type?: string; key?: string; idempotencyKey?: string } = {}) =>
    w.api.request('POST', PATH, {
      key: options.key ?? w.keys.operator,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: {
        'Content-Type': options.type ?? 'application/x-ndjson',
        ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
      },
    });
  const crewRow = (id: string) => w.db.selectFrom('crew').selectAll().where('crew_unique_id', '=', id).executeTakeFirst();

  it('answers a result per NDJSON line: applied, stale, rejected with its field path, a document before its crew member applied', async () => {
    const res = await post(
      ndjson(
        document('doc_h1', 'crew_h1', 1),
        crew('crew_h1', 1),
        '',
        crew('crew_h1', 1, { bio: 'again' }),
        crew('crew_h2', 1, { date_of_birth: '2027-02-29' }),
        '{"entity":',
      ),
    );
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(
      res.json.results.map((r: any) => [r.line, r.entity, r.id, r.outcome]),
      [
        [1, 'document', 'doc_h1', 'applied'],
        [2, 'crew', 'crew_h1', 'applied'],
        [4, 'crew', 'crew_h1', 'stale'],
        [5, 'crew', 'crew_h2', 'rejected'],
        [6, null, null, 'rejected'],
      ],
    );
    assert.deepEqual([res.json.applied, res.json.stale, res.json.held, res.json.rejected], [2, 1, 0, 2]);
    assert.deepEqual(
      res.json.results[3].issues.map((i: any) => i.loc),
      [['data', 'date_of_birth']],
    );
    assert.equal(res.json.results[3].reason, 'the record is not valid');
    assert.equal(res.json.results[4].issues[0].type, 'json_invalid');
    assert.equal(res.json.results[0].reason, null);
    assert.deepEqual(res.json.results[0].issues, []);
    assert.equal((await crewRow('crew_h1'))?.name, 'Hana Http');
    assert.equal(await crewRow('crew_h2'), undefined, 'nothing of a rejected change is written');
    assert.ok(await w.db.selectFrom('documents').select('document_id').where('document_id', '=', 'doc_h1').executeTakeFirst());
  });

  it('takes a JSON array of changes, reporting each by its position from 1', async () => {
    const res = await post(
      [crew('crew_h3', 1), { entity: 'crew', op: 'patch', id: 'crew_h3', version: 2, data: { name: null } }, 'not a change'],
      { type: 'application/json' },
    );
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(
      res.json.results.map((r: any) => [r.line, r.outcome]),
      [
        [1, 'applied'],
        [2, 'rejected'],
        [3, 'rejected'],
      ],
    );
    assert.deepEqual(
      res.json.results[1].issues.map((i: any) => i.loc),
      [['data', 'name']],
    );
    assert.equal(res.json.results[2].issues[0].type, 'model_attributes_type');
  });

  it('a record holding toString as data is rejected at its path, the rest applied, never a 500', async () => {
    const res = await post(
      ndjson(crew('crew_ts1', 1, { name: { toString: 1 } }), crew('crew_ts2', 1, { extra: [{ toString: false }] }), crew('crew_ts3', 1)),
    );
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual(
      res.json.results.map((r: any) => [r.id, r.outcome, r.issues.map((i: any) => i.loc)]),
      [
        ['crew_ts1', 'rejected', [['data', 'name']]],
        ['crew_ts2', 'rejected', [['data', 'extra']]],
        ['crew_ts3', 'applied', []],
      ],
    );
    assert.deepEqual(res.json.results[1].issues[0].input, [{ toString: false }], 'the value as sent');
    assert.equal(await crewRow('crew_ts1'), undefined);
  });

  it('an Idempotency-Key sent again with the same body gets the same answer, marked replayed, and applies nothing twice', async () => {
    const body = ndjson(crew('crew_h4', 1, { bio: 'first' }));
    const first = await post(body, { idempotencyKey: 'batch-h4' });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), 'false');
    assert.equal((await post(ndjson({ entity: 'crew', op: 'patch', id: 'crew_h4', version: 2, data: { bio: 'second' } }))).json.applied, 1);
    const again = await post(body, { idempotencyKey: 'batch-h4' });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.json, first.json, 'the answer kept, not a new one (which would say stale)');
    assert.equal((await crewRow('crew_h4'))?.bio, 'second', 'the replay applied nothing');
  });

  it("two requests sent together with one Idempotency-Key apply once: both get the first one's answer", async () => {
    const body = ndjson(crew('crew_h12', 1), document('doc_h12', 'crew_h12', 1));
    const both = await Promise.all([post(body, { idempotencyKey: 'batch-h12' }), post(body, { idempotencyKey: 'batch-h12' })]);
    assert.deepEqual(
      both.map((r) => r.status),
      [200, 200],
    );
    assert.deepEqual(both.map((r) => r.headers.get('idempotent-replayed')).sort(), ['false', 'true']);
    assert.deepEqual(both[0].json, both[1].json);
    assert.deepEqual(
      both[0].json.results.map((r: any) => r.outcome),
      ['applied', 'applied'],
    );
  });

  it('the same Idempotency-Key with another body is 409 idempotency_key_reused and applies nothing', async () => {
    assert.equal((await post(ndjson(crew('crew_h5', 1)), { idempotencyKey: 'batch-h5' })).status, 200);
    const res = await post(ndjson(crew('crew_h5', 2, { bio: 'other' }), crew('crew_h6', 1)), { idempotencyKey: 'batch-h5' });
    expectError(res, 409, 'idempotency_key_reused');
    assert.equal((await crewRow('crew_h5'))?.bio, null);
    assert.equal(await crewRow('crew_h6'), undefined);
  });

  it('an Idempotency-Key is kept 24 hours: afterwards the same body is a new request', async () => {
    const body = ndjson(crew('crew_h7', 1));
    assert.equal((await post(body, { idempotencyKey: 'batch-h7' })).json.applied, 1);
    w.setNow(new Date(NOW.getTime() + 24 * 3_600_000 + 1_000));
    try {
      const later = await post(body, { idempotencyKey: 'batch-h7' });
      assert.equal(later.headers.get('idempotent-replayed'), 'false');
      assert.deepEqual(
        later.json.results.map((r: any) => r.outcome),
        ['stale'],
      );
    } finally {
      w.setNow(NOW);
    }
  });

  it('a malformed Idempotency-Key is 422 at ["header", "idempotency-key"]', async () => {
    const res = await post(ndjson(crew('crew_h8', 1)), { idempotencyKey: 'has spaces in it' });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.json.detail.map((i: any) => i.loc),
      [['header', 'idempotency-key']],
    );
    assert.equal(await crewRow('crew_h8'), undefined);
  });

  it('refuses a partner key and an operator key tied to a partner (403), and no key (401)', async () => {
    expectError(await post(ndjson(crew('crew_h9', 1)), { key: w.keys.full }), 403, 'insufficient_scope', { required_scope: 'operator' });
    const tied = await issueOperatorKey(w.db, () => NOW, { partnerId: 'ptn_full', label: 'tied' });
    expectError(await post(ndjson(crew('crew_h9', 1)), { key: tied.key }), 403, 'insufficient_scope', { required_scope: 'operator' });
    expectError(
      await w.api.request('POST', PATH, { body: ndjson(crew('crew_h9', 1)), headers: { 'Content-Type': 'application/x-ndjson' } }),
      401,
      'invalid_api_key',
    );
    assert.equal(await crewRow('crew_h9'), undefined);
  });

  it('bounds: more than 10,000 changes or a body over 10 MiB is 413, another content type 415, a JSON body not an array 422', async () => {
    const many = Array.from({ length: 10_001 }, () => '{}').join('\n');
    expectError(await post(many), 413, 'payload_too_large');
    expectError(
      await post(`[${Array.from({ length: 10_001 }, () => '{}').join(',')}]`, { type: 'application/json' }),
      413,
      'payload_too_large',
    );
    // Declared over the bound: answered before the body is sent, and the connection closed.
    const declared = parseRawResponse(
      await rawExchange(
        w.api.url,
        `POST ${PATH} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${w.keys.operator}\r\n` +
          `Content-Type: application/x-ndjson\r\nContent-Length: ${10 * 1024 * 1024 + 1}\r\n\r\n{"entity"`,
        { stall: true },
      ),
    );
    assert.deepEqual([declared.status, declared.body.detail.code, declared.headers.get('connection')], [413, 'payload_too_large', 'close']);
    expectError(await post(ndjson(crew('crew_h10', 1)), { type: 'text/plain' }), 415, 'unsupported_media_type');
    const object = await post(crew('crew_h10', 1), { type: 'application/json' });
    assert.equal(object.status, 422);
    assert.deepEqual(
      object.json.detail.map((i: any) => [i.type, i.loc]),
      [['list_type', ['body']]],
    );
    expectIssues(await post('[{"entity":', { type: 'application/json' }), [
      {
        type: 'json_invalid',
        loc: ['body', 11],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
    assert.equal(await crewRow('crew_h10'), undefined);
  });

  it('an empty body is a batch of no changes', async () => {
    const res = await post('');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { results: [], applied: 0, stale: 0, held: 0, rejected: 0 });
  });

  it('is audited under the operator key and the route', async () => {
    const res = await post(ndjson(crew('crew_h11', 1)));
    const rows = await w.auditOf(res.headers.get('x-request-id')!);
    assert.equal(rows.length, 1);
    assert.deepEqual([rows[0]!.keyId, rows[0]!.route, rows[0]!.method, rows[0]!.status], [w.keyIds.operator, PATH, 'POST', 200]);
  });
});
