import assert from 'node:assert/strict';
import { it } from 'node:test';
import { expectError, expectIssues } from '../support/expect.ts';
import { describeEachWorld, liveAndDownWorlds, startWorld } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const check = (crew: string, query = '') => `/api/v2/employers/me/crew/${crew}/compliance-checks${query}`;

describeEachWorld('the compliance check endpoint', { catalogue: true }, (w) => {
  const post = (crew: string, key: string, body: unknown = {}, query = '') => w.api.request('POST', check(crew, query), { key, body });

  it("evaluates live: the role's rows, counts that add up, the overall status, as of now", async () => {
    const res = await post('crew_ana', w.keys.full);
    assert.equal(res.status, 200);
    const r = res.json;
    assert.equal(r.crew_unique_id, 'crew_ana');
    assert.equal(r.vessel_id, 'ves_a1');
    assert.equal(r.compliance_source, 'live_evaluator');
    assert.equal(r.as_of, '2026-11-22T10:00:00Z');
    assert.equal(r.summary.total, r.requirements.length);
    const { total, ...counts } = r.summary;
    assert.equal(
      Object.values(counts).reduce((a: number, b) => a + (b as number), 0),
      total,
    );
    const medical = r.requirements.find((x: any) => x.key === 'medical_fitness');
    assert.equal(medical.status, 'expiring');
    assert.equal(medical.expiry_date, '2026-12-01');
    assert.equal(medical.satisfied_by[0].document_id, 'doc_med');
    // Absolute, on the same origin as the download endpoint's download_url.
    assert.match(medical.satisfied_by[0].download_path, new RegExp(`^${w.api.url}/api/v2/files/[^/]+$`));
    assert.equal(r.requirements.find((x: any) => x.key === 'coc').status, 'missing', 'a CoC without capacities covers no role');
    assert.equal(r.overall_status, 'non_compliant');
  });

  it('a download path from satisfied_by fetches the file directly', async () => {
    const r = (await post('crew_ana', w.keys.full)).json;
    const path = r.requirements.find((x: any) => x.key === 'medical_fitness').satisfied_by[0].download_path;
    const file = await w.api.get(new URL(path).pathname);
    assert.equal(file.status, 200);
    assert.ok(file.bytes.subarray(0, 5).equals(Buffer.from('%PDF-')));
  });

  it('without crew:medical:read a medical row keeps its status but loses documents and expiry; no download scope, no paths', async () => {
    const key = await w.partnerWith(['crew:compliance:read']);
    const r = (await post('crew_ana', key)).json;
    const medical = r.requirements.find((x: any) => x.key === 'medical_fitness');
    assert.deepEqual(
      {
        status: medical.status,
        group: medical.group,
        required: medical.required,
        satisfied_by: medical.satisfied_by,
        expiry_date: medical.expiry_date,
        days: medical.days_until_expiry,
      },
      { status: 'expiring', group: 'medical', required: true, satisfied_by: [], expiry_date: null, days: null },
    );
    for (const row of r.requirements) for (const d of row.satisfied_by) assert.equal(d.download_path, null);
  });

  it("gates: scope 403, another partner's crew 404, test data with a live key 404, consent 403", async () => {
    expectError(await post('crew_ana', await w.partnerWith(['vessels:fleet:read'])), 403, 'insufficient_scope', {
      required_scope: 'crew:compliance:read',
    });
    expectError(await post('crew_fay', w.keys.full), 404, 'crew_not_found');
    expectError(await post('crew_eve', w.keys.full), 404, 'crew_not_found');
    expectError(await post('crew_dan', w.keys.full), 404, 'crew_not_found');
    expectError(await post('crew_cho', w.keys.full), 403, 'consent_required', { consent: 'compliance' });
  });

  it('vessel_id picks the vessel; a vessel the crew member is not on is 404', async () => {
    assert.equal((await post('crew_ana', w.keys.full, {}, '?vessel_id=ves_a1')).json.vessel_id, 'ves_a1');
    expectError(await post('crew_ana', w.keys.full, {}, '?vessel_id=ves_a2'), 404, 'crew_not_found');
  });

  it('the body must be exactly {}', async () => {
    expectIssues(await w.api.request('POST', check('crew_ana'), { key: w.keys.full, headers: { 'Content-Type': 'application/json' } }), [
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
    expectIssues(await post('crew_ana', w.keys.full, { vessel: 'x' }), [
      { type: 'extra_forbidden', loc: ['body', 'vessel'], msg: 'Extra inputs are not permitted', input: 'x' },
    ]);
    expectIssues(await post('crew_ana', w.keys.full, []), [
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [],
      },
    ]);
    const bad = await w.api.request('POST', check('crew_ana'), {
      key: w.keys.full,
      body: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.json.detail[0].type, 'json_invalid');
  });
});

describeEachStore('the compliance check when the evaluator is down', ({ store }) => {
  const worlds = liveAndDownWorlds(() => store().db);
  /** A live check of crew_ana, its result written to the store. */
  async function storedLive() {
    const res = await worlds.live().api.request('POST', check('crew_ana'), { key: worlds.live().keys.full, body: {} });
    // Another process (here: another app) reads the store, where the result is written behind the call.
    await worlds.live().flushResults();
    return res;
  }

  it('returns the latest stored result, flagged, with its own as_of', async () => {
    const first = await storedLive();
    worlds.down().setNow(new Date('2026-11-23T08:00:00.000Z'));
    const res = await worlds.down().api.request('POST', check('crew_ana'), { key: worlds.down().keys.full, body: {} });
    assert.equal(res.status, 200);
    assert.equal(res.json.compliance_source, 'serviceCompliance_fallback');
    assert.equal(res.json.as_of, first.json.as_of);
    assert.deepEqual(
      res.json.requirements.map((r: any) => [r.key, r.status]),
      first.json.requirements.map((r: any) => [r.key, r.status]),
    );
  });

  it('with nothing stored answers 503 compliance_unavailable with Retry-After', async () => {
    const res = await worlds.down().api.request('POST', check('crew_fay'), { key: worlds.down().keys.b, body: {} });
    expectError(res, 503, 'compliance_unavailable');
    assert.ok(Number(res.headers.get('retry-after')) > 0);
  });

  it('a stalled evaluator is cut off at the deadline', async () => {
    assert.equal((await storedLive()).json.compliance_source, 'live_evaluator');
    const stalled = await startWorld(store().db, { config: { complianceFault: 'stall', complianceDeadlineMs: 50 } });
    try {
      const res = await stalled.api.request('POST', check('crew_ana'), { key: stalled.keys.full, body: {} });
      assert.equal(res.json.compliance_source, 'serviceCompliance_fallback');
    } finally {
      await stalled.close();
    }
  });
});
