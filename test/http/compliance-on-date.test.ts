import assert from 'node:assert/strict';
import { it } from 'node:test';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { bstExampleFixture } from '../support/bst-example.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import { describeEachWorld, liveAndDownWorlds, NOW } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const check = (crew: string) => `/api/v2/employers/me/crew/${crew}/compliance-checks`;
const onIssue = (input: unknown, reason: string) => ({
  type: 'value_error',
  loc: ['body', 'on'],
  msg: `Value error, ${reason}`,
  input,
  ctx: { error: {} },
});

describeEachWorld('the compliance check on a date', { catalogue: true }, (w) => {
  const post = (body: unknown, key = w.keys.full) => w.api.request('POST', check('crew_ana'), { key, body });
  const medical = (r: any) => r.requirements.find((x: any) => x.key === 'medical_fitness');

  it('{} is today, as before, and says so', async () => {
    const r = (await post({})).json;
    assert.equal(r.on, '2026-11-22');
    assert.deepEqual([medical(r).status, medical(r).days_until_expiry], ['expiring', 9]);
  });

  it('on a later date the documents held now are counted from that date: the medical expires the day after its expiry', async () => {
    const onExpiry = (await post({ on: '2026-12-01' })).json;
    assert.equal(onExpiry.on, '2026-12-01');
    assert.deepEqual([medical(onExpiry).status, medical(onExpiry).days_until_expiry], ['expiring', 0]);
    const after = (await post({ on: '2026-12-02' })).json;
    assert.deepEqual([medical(after).status, medical(after).days_until_expiry, medical(after).expiry_date], ['expired', -1, '2026-12-01']);
    assert.equal(after.as_of, '2026-11-22T10:00:00Z', 'as_of stays the time of the check');
  });

  it('today and today + 730 days are accepted; anything else is a 422 that names the bounds', async () => {
    assert.equal((await post({ on: '2026-11-22' })).status, 200);
    assert.equal((await post({ on: '2028-11-21' })).status, 200);
    expectIssues(await post({ on: '2026-11-21' }), [onIssue('2026-11-21', 'on must be between 2026-11-22 and 2028-11-21')]);
    expectIssues(await post({ on: '2028-11-22' }), [onIssue('2028-11-22', 'on must be between 2026-11-22 and 2028-11-21')]);
    expectIssues(await post({ on: '2027-02-30' }), [onIssue('2027-02-30', 'on must be a calendar date written YYYY-MM-DD')]);
    expectIssues(await post({ on: '27-01-01' }), [onIssue('27-01-01', 'on must be a calendar date written YYYY-MM-DD')]);
    expectIssues(await post({ on: 20270101 }), [
      { type: 'string_type', loc: ['body', 'on'], msg: 'Input should be a valid string', input: 20270101 },
    ]);
    expectIssues(await post({ on: '2027-01-01', vessel: 'x' }), [
      { type: 'extra_forbidden', loc: ['body', 'vessel'], msg: 'Extra inputs are not permitted', input: 'x' },
    ]);
  });

  it('the gates still apply on a date', async () => {
    expectError(await w.api.request('POST', check('crew_cho'), { key: w.keys.full, body: { on: '2027-01-01' } }), 403, 'consent_required');
    expectError(await w.api.request('POST', check('crew_fay'), { key: w.keys.full, body: { on: '2027-01-01' } }), 404, 'crew_not_found');
  });

  it('without crew:medical:read the medical row is shown as it stands today on any date, and the answer says so', async () => {
    const noMedical = (await post({ on: '2026-12-02' }, await w.partnerWith(['crew:compliance:read']))).json;
    assert.deepEqual([noMedical.on, noMedical.medical_on], ['2026-12-02', '2026-11-22']);
    assert.deepEqual(
      [medical(noMedical).status, medical(noMedical).expiry_date, medical(noMedical).days_until_expiry],
      ['expiring', null, null],
    );
    assert.equal((await post({ on: '2026-12-02' })).json.medical_on, undefined, 'a key with the scope sees the rows of `on`');
  });
});

describeEachStore('the stored-result fallback applies to today only', ({ store }) => {
  const worlds = liveAndDownWorlds(() => store().db);

  it('a check on a later date is not stored, and with the evaluator down it is 503 even with a result stored for today', async () => {
    await worlds.live().api.request('POST', check('crew_ana'), { key: worlds.live().keys.full, body: { on: '2027-06-01' } });
    await worlds.live().flushResults();
    expectError(
      await worlds.down().api.request('POST', check('crew_ana'), { key: worlds.down().keys.full, body: {} }),
      503,
      'compliance_unavailable',
    );
    const today = await worlds.live().api.request('POST', check('crew_ana'), { key: worlds.live().keys.full, body: {} });
    await worlds.live().flushResults();
    const fallback = await worlds.down().api.request('POST', check('crew_ana'), { key: worlds.down().keys.full, body: {} });
    assert.deepEqual(
      [fallback.json.compliance_source, fallback.json.on, fallback.json.as_of],
      ['serviceCompliance_fallback', '2026-11-22', today.json.as_of],
    );
    expectError(
      await worlds.down().api.request('POST', check('crew_ana'), { key: worlds.down().keys.full, body: { on: '2026-11-23' } }),
      503,
      'compliance_unavailable',
    );
  });
});

describeEachWorld(
  'the worked example of docs/compliance.md: a BST that expires, on three dates',
  { catalogue: true, fixture: bstExampleFixture() },
  (w) => {
    it('compliant, at risk, non-compliant; the fleet list names the next change', async () => {
      const key = (await issuePartnerKey(w.db, 'ptn_bo', 'live', () => NOW)).key;
      const on = async (date: string) => {
        const r = (await w.api.request('POST', check('crew_bo'), { key, body: { on: date } })).json;
        const bst = r.requirements.find((x: any) => x.key === 'bst');
        return [bst.status, bst.days_until_expiry, r.overall_status];
      };
      assert.deepEqual(await on('2026-11-22'), ['met', 129, 'compliant']);
      assert.deepEqual(await on('2027-01-15'), ['expiring', 75, 'at_risk']);
      assert.deepEqual(await on('2027-04-01'), ['expired', -1, 'non_compliant']);
      const list = async (date: string) =>
        (await w.api.get(`/api/v2/employers/me/compliance?on=${date}`, { key })).json.items[0].next_change;
      assert.deepEqual(await list('2026-11-22'), { on: '2026-12-31', overall_status: 'at_risk', requirement_keys: ['bst'] });
      assert.deepEqual(await list('2027-01-15'), { on: '2027-04-01', overall_status: 'non_compliant', requirement_keys: ['bst'] });
    });
  },
);
