import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { maskUrl, maskUrlsIn, urlsAmong } from '../../src/domain/masked-url.ts';

/** A marker no host, user or database name below contains: wherever the password lands, it is found. */
const MARK = 'S3CR3TMARK';

describe('maskUrl: store and broker URLs as svc prints them', () => {
  const table: [string, string][] = [
    ['postgres://svc:hunter2@db.internal:5432/svc', 'postgres://svc:***@db.internal:5432/svc'],
    ['postgresql://svc:p%40ss@db.internal/svc', 'postgresql://svc:***@db.internal/svc'],
    ['postgres://svc:p@ss@db.internal/svc', 'postgres://svc:***@db.internal/svc'],
    ['postgres://svc@db.internal/svc?password=x&sslmode=require', 'postgres://svc@db.internal/svc?password=***&sslmode=require'],
    ['postgres://svc@db.internal/svc?pass%77ord=x', 'postgres://svc@db.internal/svc?password=***'],
    ['postgres://svc@db.internal/svc?sslpassword=x', 'postgres://svc@db.internal/svc?sslpassword=***'],
    ['postgres://:pw@db.internal/svc', 'postgres://:***@db.internal/svc'],
    ['amqp://guest:guest@127.0.0.1:5672/%2F?heartbeat=30', 'amqp://guest:***@127.0.0.1:5672/%2F?heartbeat=30'],
    // A raw `/` in the password: the parser ends the host there; everything up to the last `@` is hidden.
    ['postgres://svc:1/pw@db.internal/svc', 'postgres://***@db.internal/svc'],
    ['postgres://svc:?pw@db.internal/svc', 'postgres://***'],
    ['postgres://svc@db.internal/svc?password=p@ss', 'postgres://***'],
    // Not a URL a client can read: only its scheme is shown.
    ['postgres://svc:se cret@db.internal:port/svc', 'postgres://***'],
    // Nothing secret: shown as written.
    ['postgres://svc@db.internal:5432/svc?sslmode=require', 'postgres://svc@db.internal:5432/svc?sslmode=require'],
    ['sqlite:data/svc.db', 'sqlite:data/svc.db'],
    ['sqlite:/var/lib/svc/p@ss.db', 'sqlite:/var/lib/svc/p@ss.db'],
  ];
  for (const [url, shown] of table) {
    it(`${url} is shown as ${shown}`, () => assert.equal(maskUrl(url), shown));
  }

  it('a password is never shown, however it is written: encoded or raw, in the user part or the query', () => {
    const password = fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })).map(([a, b]) => `${a}${MARK}${b}`);
    const url = fc
      .record({
        scheme: fc.constantFrom('postgres', 'postgresql', 'amqp', 'amqps'),
        user: fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/),
        password,
        form: fc.constantFrom('encoded', 'raw', 'query', 'encoded-name', 'ssl-query'),
        host: fc.constantFrom('db.internal', '127.0.0.1', '[::1]', 'db.internal:5432'),
      })
      .map(({ scheme, user, password: pw, form, host }) => {
        const base = `${scheme}://`;
        if (form === 'encoded') return `${base}${user}:${encodeURIComponent(pw)}@${host}/svc`;
        if (form === 'raw') return `${base}${user}:${pw}@${host}/svc`;
        const name = form === 'query' ? 'password' : form === 'ssl-query' ? 'sslpassword' : 'pass%77ord';
        return `${base}${user}@${host}/svc?sslmode=require&${name}=${encodeURIComponent(pw)}`;
      });
    fc.assert(
      fc.property(url, (u) => {
        const shown = maskUrl(u);
        assert.ok(!shown.includes(MARK), `${JSON.stringify(u)} shown as ${JSON.stringify(shown)}`);
        assert.ok(shown.includes('***'));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('maskUrlsIn: the URLs a command was given, masked in any text it prints', () => {
  it('finds URLs among arguments and environment values (`--db=URL` too) and masks each wherever it appears', () => {
    const db = 'postgres://svc:hunter2@db.internal/svc?password=other';
    const broker = 'amqp://guest:guest@mq.internal:5672';
    const urls = urlsAmong(['--db', db, 'ingest', `--from=${broker}`, 'plain', undefined, 'sqlite:data/svc.db']);
    assert.deepEqual(urls, [db, broker]);
    const text = `error: connect ECONNREFUSED for "${db}" via ${broker}/vhost`;
    assert.equal(
      maskUrlsIn(text, urls),
      'error: connect ECONNREFUSED for "postgres://svc:***@db.internal/svc?password=***" via amqp://guest:***@mq.internal:5672/vhost',
    );
  });
});
