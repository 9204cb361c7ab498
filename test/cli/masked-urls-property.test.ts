import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { cli } from '../support/cli.ts';
import { createPostgresStoreUrl, postgresRuns, type TestStore } from '../support/stores.ts';

/**
 * Generated passwords, written every way pg-connection-string reads one from a store URL (the user
 * part, encoded or raw; the `password` query parameter, its name encoded or not; `sslpassword`,
 * the passphrase of an ssl key), given to each command that prints or logs the store URL, by the
 * environment or by `--db`: none of them appears in what the command prints, whatever it exits
 * with. test/cli/masked-urls.test.ts shows what each prints instead.
 */

/** In every generated password: wherever the password lands in the output, this is found. */
const MARK = 'Pw7MARKq';

type Form = 'user-encoded' | 'user-raw' | 'query' | 'query-encoded-name' | 'sslpassword';

const password = fc
  .tuple(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }))
  .map(([a, b]) => `${a}${MARK}${b}`);

/** `base` (scheme://user@host:port/db) carrying `pw` in one form. */
function withPassword(base: string, pw: string, form: Form): string {
  const at = base.indexOf('@');
  // Raw in the user part: `/`, `?` and `#` end the authority for every URL parser (their cases are
  // in test/domain/masked-url.test.ts); here they would only send the client to a host named by the password.
  if (form === 'user-raw') return `${base.slice(0, at)}:${pw.replace(/[/?#]/g, '_')}${base.slice(at)}`;
  if (form === 'user-encoded') return `${base.slice(0, at)}:${encodeURIComponent(pw)}${base.slice(at)}`;
  const name = form === 'query' ? 'password' : form === 'sslpassword' ? 'sslpassword' : 'pass%77ord';
  return `${base}?application_name=svc&${name}=${encodeURIComponent(pw)}`;
}

const form = fc.constantFrom<Form>('user-encoded', 'user-raw', 'query', 'query-encoded-name', 'sslpassword');
const via = fc.constantFrom('environment', 'flag');

describe('no generated store password appears in what a command prints', { skip: !postgresRuns() && 'Postgres does not answer' }, () => {
  let pg: TestStore;
  before(async () => {
    pg = await createPostgresStoreUrl({ migrated: true });
  });
  after(async () => {
    await pg.dispose();
  });

  /** Each command that prints the store URL, and the store it is given: the test's database, or a port nothing answers on. */
  const commands: { what: string; argv: string[]; store: () => string }[] = [
    { what: 'svc config check', argv: ['config', 'check'], store: () => pg.url },
    { what: 'svc db status', argv: ['db', 'status'], store: () => pg.url },
    { what: 'svc db migrate', argv: ['db', 'migrate', '--no-catalogue'], store: () => pg.url },
    { what: 'svc config check, a store that does not answer', argv: ['config', 'check'], store: () => 'postgres://svc@127.0.0.1:1/svc' },
    { what: 'svc sync, a store that does not answer', argv: ['sync'], store: () => 'postgres://svc@127.0.0.1:1/svc' },
    {
      what: 'svc admin list-keys, a store that does not answer',
      argv: ['admin', 'list-keys'],
      store: () => 'postgres://svc@127.0.0.1:1/svc',
    },
  ];

  for (const c of commands) {
    it(c.what, async () => {
      await fc.assert(
        fc.asyncProperty(password, form, via, async (pw, f, how) => {
          const url = withPassword(c.store(), pw, f);
          const res = how === 'flag' ? await cli(['--db', url, ...c.argv]) : await cli(c.argv, { SVC_DATABASE_URL: url });
          const printed = `${res.stdout}${res.stderr}`;
          assert.ok(!printed.includes(MARK), `${JSON.stringify(url)} (${how}) printed:\n${printed}`);
          // The command did print the store, masked: the check above looked at the right place.
          assert.ok(printed.includes('***'), `${JSON.stringify(url)} (${how}) printed no masked URL:\n${printed}`);
        }),
        { numRuns: 15 },
      );
    });
  }
});
