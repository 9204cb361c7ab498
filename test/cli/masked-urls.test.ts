import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cli } from '../support/cli.ts';
import { startServeChild } from '../support/serve-child.ts';
import { createPostgresStoreUrl, createSqliteStoreUrl, postgresRuns, type TestStore } from '../support/stores.ts';

const IN_USER = 'hunter2-secret';
const IN_QUERY = 'other-secret';
const SECRETS = new RegExp(`${IN_USER}|${IN_QUERY}`);

/** `url` carrying a password both ways a Postgres client reads one (the server trusts loopback, so it still connects). */
function withPasswords(url: string): string {
  const u = new URL(url);
  u.password = IN_USER;
  u.searchParams.set('password', IN_QUERY);
  return u.toString();
}

const UNREACHABLE = `postgres://svc:${IN_USER}@127.0.0.1:1/svc?sslmode=disable&password=${IN_QUERY}`;

describe(
  'store and broker URLs are printed and logged with their passwords masked, by every command',
  { skip: !postgresRuns() && 'Postgres does not answer' },
  () => {
    let pg: TestStore;
    let sqlite: TestStore;
    before(async () => {
      pg = await createPostgresStoreUrl({ migrated: true });
      sqlite = await createSqliteStoreUrl({ migrated: true });
    });
    after(async () => {
      await sqlite.dispose();
      await pg.dispose();
    });

    const cases: { what: string; run: () => ReturnType<typeof cli>; code: number; shows: RegExp }[] = [
      {
        what: 'svc config check, the store named in its settings',
        run: () => cli(['config', 'check'], { SVC_DATABASE_URL: withPasswords(pg.url) }),
        code: 78,
        shows: /^SVC_DATABASE_URL +postgres:\/\/postgres:\*\*\*@[^ ]+\?password=\*\*\* +\[environment\]$/m,
      },
      {
        what: 'svc config check, a store it cannot open',
        run: () => cli(['config', 'check'], { SVC_DATABASE_URL: UNREACHABLE }),
        code: 78,
        shows: /warning: cannot open store postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc\?sslmode=disable&password=\*\*\*/,
      },
      {
        what: 'svc db migrate, the store it migrated',
        run: () => cli(['--db', withPasswords(pg.url), 'db', 'migrate', '--no-catalogue']),
        code: 0,
        shows: /^postgres:\/\/postgres:\*\*\*@\S+\?password=\*\*\*: already up to date$/m,
      },
      {
        what: 'svc db status, the store it read',
        run: () => cli(['db', 'status'], { SVC_DATABASE_URL: withPasswords(pg.url) }),
        code: 0,
        shows: /^postgres:\/\/postgres:\*\*\*@\S+\?password=\*\*\*: up to date$/m,
      },
      {
        what: 'svc sync, a store that does not answer',
        run: () => cli(['sync', '--db', UNREACHABLE]),
        code: 69,
        shows: /cannot open store postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc\?sslmode=disable&password=\*\*\*/,
      },
      {
        what: 'svc admin list-keys, a store URL of no known kind',
        run: () => cli(['admin', 'list-keys', '--db', `postgre://svc:${IN_USER}@db.internal/svc`]),
        code: 64,
        shows: /store URL "postgre:\/\/svc:\*\*\*@db\.internal\/svc" is neither/,
      },
      {
        what: 'svc db status, a URL no client can read',
        run: () => cli(['db', 'status', `--db=postgres://svc:${IN_USER} x@db.internal:port/svc`]),
        code: 69,
        shows: /cannot open store postgres:\/\/\*\*\*: /,
      },
      {
        what: 'svc ingest --from, a broker that does not answer',
        run: () => cli(['--db', sqlite.url, 'ingest', '--from', `amqp://guest:${IN_USER}@127.0.0.1:1/%2F`, '--queue', 'platform.changes']),
        code: 69,
        shows: /the broker at amqp:\/\/guest:\*\*\*@127\.0\.0\.1:1\/%2F does not answer/,
      },
    ];
    for (const c of cases) {
      it(`${c.what}: exit ${c.code}`, async () => {
        const res = await c.run();
        const printed = `${res.stdout}${res.stderr}`;
        assert.equal(res.code, c.code, printed);
        assert.doesNotMatch(printed, SECRETS);
        assert.match(printed, c.shows);
      });
    }

    it("svc serve's startup log names the store masked", async () => {
      const serve = await startServeChild(withPasswords(pg.url), {}, 60_000);
      try {
        const listening = serve.logs.find((l) => l.msg === 'listening');
        assert.match(String(listening?.store), /^postgres:\/\/postgres:\*\*\*@\S+\?password=\*\*\*$/);
        assert.doesNotMatch(JSON.stringify(serve.logs), SECRETS);
      } finally {
        await serve.stop();
      }
      assert.doesNotMatch(serve.stderr(), SECRETS);
    });
  },
);
