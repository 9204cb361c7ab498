import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateWebhookSecret, registerWebhookEndpoint, toEndpointWire } from '../../src/services/webhooks/endpoints.ts';
import { validateRegistration } from '../../src/services/webhooks/validate-registration.ts';
import { findEndpointByPartner } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedPartners, testClock } from '../support/sync-world.ts';

const strict = { allowInsecure: false };
const EXPECTED =
  "'crew.document.processed', 'crew.document.updated', 'crew.compliance.changed', 'crew.status.changed', 'crew.profile.updated' or 'crew.compliance.upcoming'";
const valid = { url: 'https://hooks.partner.example/svc', subscribed_events: ['crew.status.changed'] };

describe('registration body validation (422 issues, pydantic v2 shape)', () => {
  it('a missing or null body is one missing error at ["body"]', () => {
    const expected = { ok: false, issues: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
    assert.deepEqual(validateRegistration(undefined, strict), expected);
    assert.deepEqual(validateRegistration(null, strict), expected);
  });

  it('a body that is not an object is model_attributes_type', () => {
    assert.deepEqual(validateRegistration(['x'], strict), {
      ok: false,
      issues: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: ['x'],
        },
      ],
    });
  });

  it('every problem is reported at once, in field order, extras last, keys in pydantic order', () => {
    const body = { subscribed_events: ['crew.status.changed', 'crew.deleted', 7], secret: 'short', status: 'paused', foo: 1 };
    const check = validateRegistration(body, strict);
    assert.ok(!check.ok);
    assert.deepEqual(check.issues, [
      // The whole body is echoed, but never the secret in it.
      { type: 'missing', loc: ['body', 'url'], msg: 'Field required', input: { ...body, secret: '[redacted]' } },
      {
        type: 'literal_error',
        loc: ['body', 'subscribed_events', 1],
        msg: `Input should be ${EXPECTED}`,
        input: 'crew.deleted',
        ctx: { expected: EXPECTED },
      },
      {
        type: 'literal_error',
        loc: ['body', 'subscribed_events', 2],
        msg: `Input should be ${EXPECTED}`,
        input: 7,
        ctx: { expected: EXPECTED },
      },
      {
        type: 'string_too_short',
        loc: ['body', 'secret'],
        msg: 'String should have at least 24 characters',
        input: '[redacted]',
        ctx: { min_length: 24 },
      },
      {
        type: 'literal_error',
        loc: ['body', 'status'],
        msg: "Input should be 'active' or 'disabled'",
        input: 'paused',
        ctx: { expected: "'active' or 'disabled'" },
      },
      { type: 'extra_forbidden', loc: ['body', 'foo'], msg: 'Extra inputs are not permitted', input: 1 },
    ]);
    assert.deepEqual(Object.keys(check.issues[1]!), ['type', 'loc', 'msg', 'input', 'ctx']);
  });

  it('subscribed_events must be a non-empty list', () => {
    const empty = validateRegistration({ ...valid, subscribed_events: [] }, strict);
    assert.deepEqual(!empty.ok && empty.issues, [
      {
        type: 'too_short',
        loc: ['body', 'subscribed_events'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
    ]);
    const notList = validateRegistration({ ...valid, subscribed_events: 'crew.status.changed' }, strict);
    assert.deepEqual(!notList.ok && notList.issues.map((i) => i.type), ['list_type']);
  });

  const urlCases: [string, unknown, string][] = [
    ['a relative URL', '/hooks', 'Value error, url is not a valid absolute URL'],
    ['plain http', 'http://hooks.partner.example/x', 'Value error, url must use https'],
    [
      'http to loopback without the insecure switch',
      'http://127.0.0.1:9000/x',
      'Value error, url must use https (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
    ],
    ['another scheme', 'ftp://hooks.partner.example/x', 'Value error, url must use https'],
    ['credentials in the URL', 'https://user:pw@hooks.partner.example/x', 'Value error, url must not contain credentials'],
    [
      'a private address',
      'https://10.1.2.3/x',
      'Value error, url points to 10.1.2.3, a private address (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
    ],
    [
      'loopback by name',
      'https://localhost/x',
      'Value error, url points to localhost, a loopback address (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
    ],
    [
      'a link-local address',
      'https://169.254.169.254/latest',
      'Value error, url points to 169.254.169.254, a link-local address (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
    ],
    [
      'an IPv6 loopback',
      'https://[::1]/x',
      'Value error, url points to ::1, a loopback address (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
    ],
    [
      'an IPv4-mapped private address',
      'https://[::ffff:192.168.0.1]/x',
      'Value error, url points to ::ffff:c0a8:1, a private address (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)',
    ],
  ];
  for (const [what, url, msg] of urlCases) {
    it(`url refused: ${what}`, () => {
      const check = validateRegistration({ ...valid, url }, strict);
      assert.deepEqual(!check.ok && check.issues.map(({ type, loc, msg }) => ({ type, loc, msg })), [
        { type: 'value_error', loc: ['body', 'url'], msg },
      ]);
    });
  }

  it('url not a string is string_type; http to loopback passes when insecure webhooks are allowed', () => {
    const check = validateRegistration({ ...valid, url: 42 }, strict);
    assert.deepEqual(!check.ok && check.issues, [
      { type: 'string_type', loc: ['body', 'url'], msg: 'Input should be a valid string', input: 42 },
    ]);
    assert.ok(validateRegistration({ ...valid, url: 'http://127.0.0.1:9000/x' }, { allowInsecure: true }).ok);
    assert.ok(validateRegistration({ ...valid, url: 'http://localhost:9000/x' }, { allowInsecure: true }).ok);
    const remote = validateRegistration({ ...valid, url: 'http://hooks.partner.example/x' }, { allowInsecure: true });
    assert.ok(!remote.ok && /only to loopback/.test(remote.issues[0]!.msg));
  });

  it('long input is cut to 200 characters in the issue', () => {
    const check = validateRegistration({ ...valid, url: `https://${'a'.repeat(300)}` }, strict);
    assert.ok(check.ok || (check.issues[0]!.input as string).length <= 200);
    const extra = validateRegistration({ ...valid, note: 'n'.repeat(500) }, strict);
    assert.equal(!extra.ok && (extra.issues[0]!.input as string).length, 200);
  });

  it('a valid body: status defaults to active, events deduplicated, secret optional, no Ed25519 unless asked', () => {
    assert.deepEqual(validateRegistration({ ...valid, subscribed_events: ['crew.status.changed', 'crew.status.changed'] }, strict), {
      ok: true,
      value: {
        url: 'https://hooks.partner.example/svc',
        subscribedEvents: ['crew.status.changed'],
        secret: undefined,
        ed25519: false,
        noticeLeadDays: [90, 60, 30],
        status: 'active',
      },
    });
  });

  it('notice_lead_days: 90, 60 and 30 by default; chosen ones deduplicated, longest first; each from 1 to 365', () => {
    const chosen = validateRegistration({ ...valid, notice_lead_days: [7, 45, 7] }, strict);
    assert.deepEqual(chosen.ok && chosen.value.noticeLeadDays, [45, 7]);
    const bad = validateRegistration({ ...valid, notice_lead_days: [0, 366] }, strict);
    assert.deepEqual(!bad.ok && bad.issues.map((issue) => [issue.type, issue.loc.join('.')]), [
      ['greater_than_equal', 'body.notice_lead_days.0'],
      ['less_than_equal', 'body.notice_lead_days.1'],
    ]);
    const empty = validateRegistration({ ...valid, notice_lead_days: [] }, strict);
    assert.deepEqual(!empty.ok && empty.issues.map((issue) => issue.type), ['too_short']);
  });

  it('a generated secret is whsec_ + 32 random bytes base64url', () => {
    const secret = generateWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64url').length, 32);
    assert.notEqual(generateWebhookSecret(), secret);
  });
});

describeEachStore('registering and rotating a webhook endpoint', ({ store }) => {
  const publicDns = async () => ['93.184.216.34'];
  const deps = { clock: testClock().clock, allowInsecure: false, resolve: publicDns };

  it('creates (created: true, 201) with a generated secret, then rotates (created: false, 200) keeping id and creation time', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    const first = await registerWebhookEndpoint(db, 'ptn_a', valid, deps);
    assert.equal(first.created, true);
    assert.match(first.endpoint.secret, /^whsec_/);
    assert.deepEqual(await findEndpointByPartner(db, 'ptn_a'), first.endpoint);

    const tc = testClock('2026-11-23T00:00:00.000Z');
    const secret = 'my-own-secret-of-enough-length-123';
    const second = await registerWebhookEndpoint(
      db,
      'ptn_a',
      {
        url: 'https://new.partner.example/svc',
        subscribed_events: ['crew.profile.updated'],
        secret,
        status: 'disabled',
      },
      { ...deps, clock: tc.clock },
    );
    assert.equal(second.created, false);
    assert.deepEqual(await findEndpointByPartner(db, 'ptn_a'), {
      endpointId: first.endpoint.endpointId,
      partnerId: 'ptn_a',
      url: 'https://new.partner.example/svc',
      subscribedEvents: ['crew.profile.updated'],
      secret,
      nextSecret: null,
      nextSecretFrom: null,
      signingKey: null,
      nextSigningKey: null,
      noticeLeadDays: [90, 60, 30],
      status: 'disabled',
      createdAt: first.endpoint.createdAt,
      updatedAt: tc.iso(),
      health: { consecutiveFailures: 0, failingSince: null, lastSuccessAt: null, disabledReason: null, disabledAt: null },
    });
    const third = await registerWebhookEndpoint(db, 'ptn_a', valid, deps);
    assert.notEqual(third.endpoint.secret, secret, 'a rotation without a secret generates a new one');
  });

  it('keeps the lead times chosen at registration; registering them again changes nothing, other ones replace them', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_l');
    const body = { ...valid, secret: 'my-own-secret-of-enough-length-123', notice_lead_days: [14, 60] };
    await registerWebhookEndpoint(db, 'ptn_l', body, deps);
    assert.deepEqual((await findEndpointByPartner(db, 'ptn_l'))?.noticeLeadDays, [60, 14]);
    assert.equal((await registerWebhookEndpoint(db, 'ptn_l', { ...body, notice_lead_days: [60, 14, 14] }, deps)).changed, false);
    const again = await registerWebhookEndpoint(db, 'ptn_l', { ...body, notice_lead_days: [30] }, deps);
    assert.equal(again.changed, true);
    assert.deepEqual(toEndpointWire(again.endpoint).notice_lead_days, [30]);
    assert.deepEqual((await findEndpointByPartner(db, 'ptn_l'))?.noticeLeadDays, [30]);
  });

  it('an unknown partner is partner_not_found; an invalid body is invalid_input carrying the issues', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    await assert.rejects(registerWebhookEndpoint(db, 'ptn_nope', valid, deps), { code: 'partner_not_found', status: 404 });
    await assert.rejects(registerWebhookEndpoint(db, 'ptn_a', { url: 'https://x.example' }, deps), (err: any) => {
      assert.equal(err.code, 'invalid_input');
      assert.equal(err.status, 422);
      assert.deepEqual(
        err.extra.issues.map((i: any) => i.loc),
        [['body', 'subscribed_events']],
      );
      return true;
    });
  });

  it('a host resolving to a non-public address, or not resolving, is refused as a url value_error', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    const privateDns = async () => ['93.184.216.34', '10.0.0.7'];
    await assert.rejects(registerWebhookEndpoint(db, 'ptn_a', valid, { ...deps, resolve: privateDns }), (err: any) => {
      assert.deepEqual(err.extra.issues, [
        {
          type: 'value_error',
          loc: ['body', 'url'],
          msg: 'Value error, url host hooks.partner.example resolves to 10.0.0.7, a private address',
          input: valid.url,
          ctx: { error: {} },
        },
      ]);
      return true;
    });
    const noDns = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await assert.rejects(registerWebhookEndpoint(db, 'ptn_a', valid, { ...deps, resolve: noDns }), /cannot be resolved \(ENOTFOUND\)/);
    const allowed = await registerWebhookEndpoint(
      db,
      'ptn_a',
      { ...valid, url: 'http://127.0.0.1:9/x' },
      { ...deps, allowInsecure: true, resolve: noDns },
    );
    assert.equal(allowed.endpoint.url, 'http://127.0.0.1:9/x');
  });
});
