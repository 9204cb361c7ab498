import assert from 'node:assert/strict';
import { it } from 'node:test';
import { expectError, expectIssues } from '../support/expect.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

const LOOKUP = '/api/v2/employers/me/crew/lookup';

describeEachWorld('crew lookup', (w) => {
  const lookup = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    w.api.request('POST', LOOKUP, {
      key,
      body,
      headers: typeof body === 'string' ? { 'Content-Type': 'application/json', ...headers } : headers,
    });

  it('resolves an e-mail address case-insensitively and trimmed', async () => {
    const res = await lookup(w.keys.full, { email: '  ANA.silva@EXAMPLE.com ' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { crew_unique_id: 'crew_ana' });
  });

  it("only crew on the partner's fleet, in the key's mode, resolve", async () => {
    expectError(await lookup(w.keys.full, { email: 'dan@example.com' }), 404, 'crew_not_found');
    expectError(await lookup(w.keys.full, { email: 'fay@example.com' }), 404, 'crew_not_found');
    assert.deepEqual((await lookup(w.keys.b, { email: 'fay@example.com' })).json, { crew_unique_id: 'crew_fay' });
    expectError(await lookup(w.keys.full, { email: 'eve@example.com' }), 404, 'crew_not_found');
    assert.deepEqual((await lookup(w.keys.fullTest, { email: 'eve@example.com' })).json, { crew_unique_id: 'crew_eve' });
    expectError(await lookup(w.keys.full, { email: 'nobody@example.com' }), 404, 'crew_not_found');
  });

  it('needs crew:status:read (consent is not asked: the roster is not consent-gated)', async () => {
    expectError(await lookup(await w.partnerWith(['vessels:fleet:read']), { email: 'ana.silva@example.com' }), 403, 'insufficient_scope', {
      required_scope: 'crew:status:read',
    });
    const noConsent = await w.partnerWith(['crew:status:read'], []);
    assert.equal((await lookup(noConsent, { email: 'ana.silva@example.com' })).status, 200);
  });

  it('a missing or null body is `missing` at ["body"]', async () => {
    const missing = [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }];
    expectIssues(await w.api.request('POST', LOOKUP, { key: w.keys.full }), missing);
    expectIssues(await lookup(w.keys.full, 'null'), missing);
  });

  it("malformed JSON is json_invalid at the character offset, with the parser's message", async () => {
    expectIssues(await lookup(w.keys.full, '{"email": }'), [
      { type: 'json_invalid', loc: ['body', 10], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } },
    ]);
    expectIssues(await lookup(w.keys.full, '{"email": "a@b.c",}'), [
      {
        type: 'json_invalid',
        loc: ['body', 18],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting property name enclosed in double quotes' },
      },
    ]);
  });

  it('a body that is not an object is model_attributes_type, echoing it', async () => {
    const issue = (input: unknown) => [
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input,
      },
    ];
    expectIssues(await lookup(w.keys.full, '[1,2]'), issue([1, 2]));
    expectIssues(await lookup(w.keys.full, '"ana.silva@example.com"'), issue('ana.silva@example.com'));
    expectIssues(await lookup(w.keys.full, '42'), issue(42));
  });

  it('fields: missing, wrong type, not an address, and every extra key, all at once', async () => {
    expectIssues(await lookup(w.keys.full, {}), [{ type: 'missing', loc: ['body', 'email'], msg: 'Field required', input: {} }]);
    expectIssues(await lookup(w.keys.full, { email: 5 }), [
      { type: 'string_type', loc: ['body', 'email'], msg: 'Input should be a valid string', input: 5 },
    ]);
    expectIssues(await lookup(w.keys.full, { email: 'no-at-sign' }), [
      {
        type: 'value_error',
        loc: ['body', 'email'],
        msg: 'Value error, value is not a valid email address',
        input: 'no-at-sign',
        ctx: { error: {} },
      },
    ]);
    expectIssues(await lookup(w.keys.full, { email: 'ana.silva@example.com', foo: 1, bar: [true] }), [
      { type: 'extra_forbidden', loc: ['body', 'foo'], msg: 'Extra inputs are not permitted', input: 1 },
      { type: 'extra_forbidden', loc: ['body', 'bar'], msg: 'Extra inputs are not permitted', input: [true] },
    ]);
    expectIssues(await lookup(w.keys.full, { foo: 'x' }), [
      { type: 'missing', loc: ['body', 'email'], msg: 'Field required', input: { foo: 'x' } },
      { type: 'extra_forbidden', loc: ['body', 'foo'], msg: 'Extra inputs are not permitted', input: 'x' },
    ]);
  });
});
