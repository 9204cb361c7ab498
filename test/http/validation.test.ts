import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import type { RouteModule } from '../../src/http/app-deps.ts';
import { bool, int, list, literal, parseJsonBody, parseQuery, refine, str } from '../../src/http/validation/index.ts';
import { locateJsonError } from '../../src/http/validation/json-error.ts';
import { expectIssues } from '../support/expect.ts';
import { startTestApi } from '../support/http.ts';
import { checkComponent } from '../support/openapi-check.ts';

const at = ['body', 'x'];

describe('field parsers', () => {
  it('int: lax strings, bounds with pydantic messages, floats and words refused', () => {
    assert.deepEqual(int({ ge: 1 })(' 7 ', at), { ok: true, value: 7 });
    assert.deepEqual(int()(12, at), { ok: true, value: 12 });
    assert.equal((int()(4.5, at) as any).issues[0].type, 'int_type');
    assert.equal((int()('1e3', at) as any).issues[0].type, 'int_parsing');
    assert.equal((int()('99999999999999999999', at) as any).issues[0].type, 'int_parsing');
    assert.deepEqual((int({ le: 2 })('3', at) as any).issues[0].ctx, { le: 2 });
  });

  it('int from text as pydantic v2 reads it: whitespace Rust trims, underscores between digits, a fraction of zeros only', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.nat(4),
        fc.constantFrom('', ' ', '\t\n', '\u00a0', '\u0085', '\u3000'),
        (n, zeros, pad) => {
          const text = `${pad}${n}${zeros > 0 ? `.${'0'.repeat(zeros)}` : ''}${pad}`;
          assert.deepEqual(int()(text, at), { ok: true, value: n }, JSON.stringify(text));
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer(), fc.nat(3), fc.integer({ min: 1, max: 9 }), (n, zeros, digit) => {
        const text = `${n}.${'0'.repeat(zeros)}${digit}`;
        assert.equal((int()(text, at) as any).issues[0].type, 'int_parsing', text);
      }),
    );
    // Answers of pydantic 2.13 (TypeAdapter(int).validate_python), for what the generators above do not reach.
    const pydantic: [string, number | 'int_parsing'][] = [
      ['1_000_000', 1000000],
      ['00_5', 5],
      ['-0.0', 0],
      ['5.', 'int_parsing'],
      ['.0', 'int_parsing'],
      ['5e0', 'int_parsing'],
      ['5__0', 'int_parsing'],
      ['_5', 'int_parsing'],
      ['5_', 'int_parsing'],
      ['5.0_0', 'int_parsing'],
      ['0x10', 'int_parsing'],
      ['\ufeff5', 'int_parsing'],
      ['\u200b5', 'int_parsing'],
      ['5\u001c', 'int_parsing'],
      ['\u0665', 'int_parsing'],
      ['', 'int_parsing'],
    ];
    for (const [text, answer] of pydantic) {
      const parsed = int()(text, at) as any;
      assert.deepEqual(parsed.ok ? parsed.value : parsed.issues[0].type, answer, JSON.stringify(text));
    }
  });

  it('bool: the words pydantic accepts, case-insensitive', () => {
    for (const t of ['true', 'True', '1', 'yes', 'on', 't', 'y', true])
      assert.deepEqual(bool()(t, at), { ok: true, value: true }, String(t));
    for (const f of ['false', '0', 'no', 'OFF', 'f', 'n', false]) assert.deepEqual(bool()(f, at), { ok: true, value: false }, String(f));
    assert.equal((bool()('2', at) as any).issues[0].type, 'bool_parsing');
    assert.equal((bool()(null, at) as any).issues[0].type, 'bool_type');
  });

  it('str, literal, list and refine report pydantic types and contexts', () => {
    assert.deepEqual((str({ minLength: 2 })('a', at) as any).issues[0], {
      type: 'string_too_short',
      loc: at,
      msg: 'String should have at least 2 characters',
      input: 'a',
      ctx: { min_length: 2 },
    });
    assert.deepEqual((str({ pattern: /^https:/ })('http://x', at) as any).issues[0].ctx, { pattern: '^https:' });
    assert.deepEqual((literal(['active', 'disabled'])('on', at) as any).issues[0], {
      type: 'literal_error',
      loc: at,
      msg: "Input should be 'active' or 'disabled'",
      input: 'on',
      ctx: { expected: "'active' or 'disabled'" },
    });
    const events = list(literal(['a', 'b']), { minLength: 1 });
    assert.deepEqual(
      (events(['a', 'c', 'x'], at) as any).issues.map((i: any) => i.loc),
      [
        [...at, 1],
        [...at, 2],
      ],
    );
    assert.deepEqual((events([], at) as any).issues[0], {
      type: 'too_short',
      loc: at,
      msg: 'List should have at least 1 item after validation, not 0',
      input: [],
      ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
    });
    assert.equal((events('a', at) as any).issues[0].type, 'list_type');
    const even = refine(int(), (n) => (n % 2 === 0 ? null : 'must be even'));
    assert.deepEqual((even(3, at) as any).issues[0], {
      type: 'value_error',
      loc: at,
      msg: 'Value error, must be even',
      input: 3,
      ctx: { error: {} },
    });
  });

  it('long string input is echoed cut to 200 characters', () => {
    assert.equal((int()('9'.repeat(500) + 'x', at) as any).issues[0].input.length, 200);
  });
});

describe('locating JSON errors as Python does', () => {
  const cases: [string, number, string][] = [
    ['{"email": }', 10, 'Expecting value'],
    ['{a:1}', 1, 'Expecting property name enclosed in double quotes'],
    ['{"a" 1}', 5, "Expecting ':' delimiter"],
    ['[1 2]', 3, "Expecting ',' delimiter"],
    ['{"a":1} x', 8, 'Extra data'],
    ['"abc', 0, 'Unterminated string starting at'],
    ['{"a":"\\x"}', 6, 'Invalid \\escape'],
    ['   ', 3, 'Expecting value'],
    ['{"é😀":1,}', 8, 'Expecting property name enclosed in double quotes'],
  ];
  for (const [text, pos, msg] of cases) {
    it(`${JSON.stringify(text)} → ${pos} ${msg}`, () => assert.deepEqual(locateJsonError(text), { pos, msg }));
  }
  it('accepts what is valid', () => assert.equal(locateJsonError('{"a":[1,-2.5e3,true,null,"\\u00e9"]}'), null));
});

/** Test-only routes using the helper the way other route modules do. */
const probe: RouteModule = {
  name: 'probe',
  register(router) {
    router.post('/test/empty', async (ctx) => {
      ctx.body = await parseJsonBody(ctx, {});
    });
    router.get('/test/query', async (ctx) => {
      ctx.body = parseQuery(ctx, {
        n: { parse: int({ ge: 0 }), default: 5 },
        flag: { parse: bool(), required: true },
        mode: { parse: literal(['a', 'b']) },
      });
    });
  },
};

describe('the helper inside a route', () => {
  it('a body that must be exactly {}, and query parameters read together', async () => {
    const app = createApp({ db: {} as never, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) }, [probe]);
    const api = await startTestApi(app);
    try {
      const empty = await api.request('POST', '/test/empty', { body: {}, unchecked: true });
      assert.deepEqual([empty.status, empty.json], [200, {}]);
      const extra = await api.request('POST', '/test/empty', { body: { a: 1 }, unchecked: true });
      checkComponent('ValidationError', extra.json);
      expectIssues(extra, [{ type: 'extra_forbidden', loc: ['body', 'a'], msg: 'Extra inputs are not permitted', input: 1 }]);
      const q = await api.get('/test/query?flag=yes&n=2&n=3', { unchecked: true });
      assert.deepEqual(q.json, { n: 3, flag: true }, 'a repeated parameter counts by its last value');
      const bad = await api.get('/test/query?n=-1&mode=c', { unchecked: true });
      checkComponent('ValidationError', bad.json);
      assert.deepEqual(
        bad.json.detail.map((i: any) => [i.type, i.loc]),
        [
          ['greater_than_equal', ['query', 'n']],
          ['missing', ['query', 'flag']],
          ['literal_error', ['query', 'mode']],
        ],
      );
      assert.equal(bad.json.detail[1].input, null);
    } finally {
      await api.close();
    }
  });
});
