import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { expectError, expectIssues } from '../support/expect.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

const LIST = '/api/v2/employers/me/compliance';
const matrix = (vessel: string, query = '') => `/api/v2/employers/me/vessels/${vessel}/compliance-matrix${query}`;
const cursorIssue = (input: string) => ({
  type: 'value_error',
  loc: ['query', 'cursor'],
  msg: 'Value error, invalid cursor',
  input,
  ctx: { error: {} },
});

describeEachWorld('the fleet compliance list', { catalogue: true }, (w) => {
  it("lists consenting crew on the fleet of the key's mode, each as the single check, with the next change", async () => {
    const res = await w.api.get(LIST, { key: w.keys.full });
    assert.equal(res.status, 200);
    assert.equal(res.json.on, '2026-11-22');
    // crew_ben has no consent, crew_cho status consent only, crew_dan signed off, crew_eve test data, crew_fay another fleet.
    assert.deepEqual(
      res.json.items.map((i: any) => [i.crew_unique_id, i.vessel_id]),
      [['crew_ana', 'ves_a1']],
    );
    const single = (await w.api.request('POST', `/api/v2/employers/me/crew/crew_ana/compliance-checks`, { key: w.keys.full, body: {} }))
      .json;
    const [ana] = res.json.items;
    assert.deepEqual([ana.overall_status, ana.summary, ana.position_name], [single.overall_status, single.summary, single.position_name]);
    assert.equal(res.json.next_cursor, undefined);
    const test = await w.api.get(LIST, { key: w.keys.fullTest });
    assert.deepEqual(
      test.json.items.map((i: any) => i.crew_unique_id),
      ['crew_eve'],
    );
  });

  it('filters by vessel, status and change window; the query is validated in one 422', async () => {
    const ids = async (q: string) => (await w.api.get(`${LIST}?${q}`, { key: w.keys.full })).json.items.map((i: any) => i.crew_unique_id);
    const ana = (await w.api.get(LIST, { key: w.keys.full })).json.items[0];
    assert.deepEqual(await ids(`overall_status=${ana.overall_status}`), ['crew_ana']);
    assert.deepEqual(await ids('overall_status=compliant,no_role'), ana.overall_status === 'compliant' ? ['crew_ana'] : []);
    assert.deepEqual(await ids('vessel_id=ves_a2'), []);
    assert.deepEqual(await ids('vessel_id=ves_b1'), [], "another fleet's vessel lists nothing");
    // Field issues in declaration order, then the date bound, which needs the request's today.
    expectIssues(await w.api.get(`${LIST}?on=2026-11-21&overall_status=fine&limit=0&changes_within_days=0`, { key: w.keys.full }), [
      {
        type: 'literal_error',
        loc: ['query', 'overall_status'],
        msg: "Input should be 'compliant', 'at_risk', 'non_compliant' or 'no_role'",
        input: 'fine',
        ctx: { expected: "'compliant', 'at_risk', 'non_compliant' or 'no_role'" },
      },
      {
        type: 'greater_than_equal',
        loc: ['query', 'changes_within_days'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
      {
        type: 'value_error',
        loc: ['query', 'on'],
        msg: 'Value error, on must be between 2026-11-22 and 2028-11-21',
        input: '2026-11-21',
        ctx: { error: {} },
      },
    ]);
  });

  it('a crew member missing a required document stays non-compliant whatever the date: no next change, no match for a change window', async () => {
    const ana = (await w.api.get(`${LIST}?on=2026-11-30`, { key: w.keys.full })).json.items[0];
    assert.deepEqual([ana.overall_status, ana.next_change], ['non_compliant', null]);
    assert.deepEqual((await w.api.get(`${LIST}?changes_within_days=730`, { key: w.keys.full })).json.items, []);
  });

  it('cursors are signed and bound to partner, mode and filters; answers carry an ETag honoured by If-None-Match', async () => {
    expectIssues(await w.api.get(`${LIST}?cursor=abc`, { key: w.keys.full }), [cursorIssue('abc')]);
    const fleetPage = (await w.api.get('/api/v2/employers/me/fleet?limit=1', { key: w.keys.full })).json;
    if (fleetPage.next_cursor)
      expectIssues(await w.api.get(`${LIST}?cursor=${fleetPage.next_cursor}`, { key: w.keys.full }), [cursorIssue(fleetPage.next_cursor)]);
    const first = await w.api.get(LIST, { key: w.keys.full });
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await w.api.get(LIST, { key: w.keys.full, headers: { 'If-None-Match': etag } })).status, 304);
  });

  it('needs crew:compliance:read', async () => {
    expectError(await w.api.get(LIST, { key: await w.partnerWith(['vessels:fleet:read']) }), 403, 'insufficient_scope', {
      required_scope: 'crew:compliance:read',
    });
  });
});

describeEachWorld('the vessel compliance matrix', { catalogue: true }, (w) => {
  it('JSON: one row per consenting crew member, one column per requirement key, cells as the single check', async () => {
    const res = await w.api.get(matrix('ves_a1'), { key: w.keys.full });
    assert.equal(res.status, 200);
    const m = res.json;
    assert.deepEqual([m.vessel_id, m.on, m.rows.map((r: any) => r.crew_unique_id)], ['ves_a1', '2026-11-22', ['crew_ana']]);
    const medicalAt = m.columns.findIndex((c: any) => c.key === 'medical_fitness');
    assert.deepEqual(m.rows[0].cells[medicalAt], { status: 'expiring', expiry_date: '2026-12-01' });
    const later = (await w.api.get(matrix('ves_a1', '?on=2026-12-02'), { key: w.keys.full })).json;
    assert.deepEqual(later.rows[0].cells[medicalAt], { status: 'expired', expiry_date: '2026-12-01' });
  });

  it('CSV with Accept: text/csv: RFC 4180, a header row, parsing back to the JSON answer', async () => {
    const json = (await w.api.get(matrix('ves_a1'), { key: w.keys.full })).json;
    const res = await w.api.get(matrix('ves_a1'), { key: w.keys.full, headers: { Accept: 'text/csv' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/csv; charset=utf-8/);
    assert.match(res.headers.get('vary') ?? '', /Accept/);
    assert.ok(res.bytes.toString().endsWith('\r\n'), 'CRLF line ends');
    const [header, ...records] = parse(res.bytes);
    assert.deepEqual(header!.slice(0, 5), [
      'crew_unique_id',
      'position_name',
      'overall_status',
      `${json.columns[0].key} status`,
      `${json.columns[0].key} expiry_date`,
    ]);
    assert.deepEqual(
      records.map((r) => [r[0], r[2]]),
      json.rows.map((r: any) => [r.crew_unique_id, r.overall_status]),
    );
    const etag = res.headers.get('etag')!;
    assert.notEqual(
      etag,
      (await w.api.get(matrix('ves_a1'), { key: w.keys.full })).headers.get('etag'),
      'JSON and CSV have different tags',
    );
    assert.equal(
      (await w.api.get(matrix('ves_a1'), { key: w.keys.full, headers: { Accept: 'text/csv', 'If-None-Match': etag } })).status,
      304,
    );
  });

  it("another fleet's vessel, a test vessel with a live key and an unknown vessel are all vessel_not_found", async () => {
    for (const v of ['ves_b1', 'ves_at', 'ves_nope'])
      expectError(await w.api.get(matrix(v), { key: w.keys.full }), 404, 'vessel_not_found');
    assert.equal((await w.api.get(matrix('ves_at'), { key: w.keys.fullTest })).status, 200);
  });

  it('without crew:medical:read medical cells keep their status, not their expiry', async () => {
    const m = (await w.api.get(matrix('ves_a1'), { key: await w.partnerWith(['crew:compliance:read']) })).json;
    const at = m.columns.findIndex((c: any) => c.key === 'medical_fitness');
    assert.deepEqual(m.rows[0].cells[at], { status: 'expiring', expiry_date: null });
  });
});
