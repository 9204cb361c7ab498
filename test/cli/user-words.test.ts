import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedPartners } from '../support/sync-world.ts';

// A store that is never opened: every error below is found before the store is touched.
const never = `sqlite:${join(mkdtempSync(join(tmpdir(), 'svc-words-')), 'never', 'svc.db')}`;

describe('a bad setting is said in one line: the variable, what it allows, what it got', () => {
  const cases: [Record<string, string>, string][] = [
    [{ SVC_PORT: 'abc' }, 'svc: SVC_PORT must be a whole number from 0 to 65535, not "abc"'],
    [{ SVC_PORT: '70000' }, 'svc: SVC_PORT must be a whole number from 0 to 65535, not 70000'],
    [{ SVC_RATE_LIMIT: '0' }, 'svc: SVC_RATE_LIMIT must be a whole number of at least 1, not 0'],
    [{ SVC_LOG_LEVEL: 'loud' }, 'svc: SVC_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud"'],
    [{ SVC_TRUST_PROXY: 'maybe' }, 'svc: SVC_TRUST_PROXY must be 1 or 0 (also true/false, yes/no, on/off), not "maybe"'],
    [{ SVC_NOW: 'tomorrow' }, 'svc: SVC_NOW must be an ISO 8601 date-time such as 2026-11-22T10:00:00Z, not "tomorrow"'],
  ];
  for (const [env, line] of cases) {
    it(`${Object.entries(env)[0]!.join('=')}`, async () => {
      const res = await cliChild(['--db', never, 'serve'], { ...env, SVC_LOG_LEVEL: env.SVC_LOG_LEVEL ?? 'silent' });
      assert.equal(res.code, 64);
      assert.equal(res.stderr, `${line}\n`);
      assert.doesNotMatch(res.stderr, /At path|Expected/);
    });
  }
});

describe('a bad option is one line and a pointer to the help, not the whole help', () => {
  for (const [argv, error, pointer] of [
    [['sync', '--bogus'], "error: unknown option '--bogus'", 'svc sync --help'],
    [
      ['admin', 'register-webhook', '--partner', 'p'],
      "error: required option '--url <url>' not specified",
      'svc admin register-webhook --help',
    ],
    [
      ['serve', '--port', 'abc'],
      "error: option '--port <n>' argument 'abc' is invalid. expected a port number 0-65535",
      'svc serve --help',
    ],
    [['nope'], "error: unknown command 'nope'", 'svc --help'],
  ] as const) {
    it(`svc ${argv.join(' ')}`, async () => {
      const res = await cliChild(['--db', never, ...argv]);
      assert.equal(res.code, 64);
      assert.equal(res.stderr, `${error}\n(${pointer} lists what it accepts)\n`);
      assert.equal(res.stdout, '');
    });
  }
});

describeEachStore('svc admin register-webhook and rotate-secret name the flags typed, not body fields', ({ store, url }) => {
  before(() => seedPartners(store().db, 'ptn_a'));
  const svc = (...argv: string[]) => cliChild(['--db', url(), 'admin', ...argv], { SVC_ALLOW_INSECURE_WEBHOOKS: '1' });

  it('a bad --url, an unknown event in --events and a short --secret, all in one line; nothing registered', async () => {
    const res = await svc(
      'register-webhook',
      '--partner',
      'ptn_a',
      '--url',
      'ftp://hooks.example/x',
      '--events',
      'crew.status.changed,crew.nope',
      '--secret',
      'short',
    );
    assert.equal(res.code, 65, res.stderr);
    const lines = res.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, res.stderr);
    assert.match(lines[0]!, /^svc: --url: .*https/);
    assert.match(lines[0]!, /; --events value "crew\.nope": Input should be 'crew\./);
    assert.match(lines[0]!, /; --secret: /);
    assert.match(lines[0]!, /\(svc admin register-webhook --help lists what it accepts\)$/);
    assert.doesNotMatch(res.stderr, /body\.|subscribed_events|short/, 'no body fields, and the secret is not echoed');
    const listed = await svc('list-webhooks', '--json');
    assert.deepEqual(JSON.parse(listed.stdout), []);
  });

  it('a bad --activate-at of rotate-secret names the flag', async () => {
    const ok = await svc('register-webhook', '--partner', 'ptn_a', '--url', 'http://127.0.0.1:9/hooks', '--events', 'crew.status.changed');
    assert.equal(ok.code, 0, ok.stderr);
    const res = await svc('rotate-secret', '--partner', 'ptn_a', '--activate-at', 'soon');
    assert.equal(res.code, 65, res.stderr);
    assert.match(res.stderr, /^svc: --activate-at: .*\(svc admin rotate-secret --help lists what it accepts\)\n$/);
    assert.doesNotMatch(res.stderr, /body\.|activate_at/);
  });
});
