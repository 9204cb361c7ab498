import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { echoInput, isSecretName, MAX_INPUT_TEXT, MAX_INPUT_VALUES } from '../../src/domain/echo-input.ts';

const SECRET = 'whsec_TOPSECRETVALUE0123456789';

/** A key spelled in random case from the secret-like names. */
const secretKey = fc
  .tuple(
    fc.constantFrom('secret', 'password', 'token', 'api_key', 'Authorization', 'signing_key', 'passwd'),
    fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
  )
  .map(([name, upper]) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** Puts `{[key]: SECRET}` somewhere inside `value` (or around it). */
function plant(value: unknown, key: string, path: number[]): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return { keep: value, [key]: SECRET };
  const [step, ...rest] = path as [number, ...number[]];
  if (Array.isArray(value)) {
    if (value.length === 0) return [plant(null, key, [])];
    const i = step % value.length;
    return value.map((v, j) => (j === i ? plant(v, key, rest) : v));
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return { [key]: SECRET };
  const k = keys[step % keys.length]!;
  return { ...value, [k]: plant((value as Record<string, unknown>)[k], key, rest) };
}

describe('echoed input', () => {
  it('never holds a value found under a secret-like key, at any depth and in any case', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), secretKey, fc.array(fc.nat(), { maxLength: 6 }), (value, key, path) => {
        const planted = plant(value, key, path);
        assert.ok(!JSON.stringify(echoInput(planted)).includes(SECRET));
        assert.ok(!JSON.stringify(echoInput(SECRET, key)).includes(SECRET));
      }),
      { numRuns: 300 },
    );
  });

  it('is bounded in size whatever the input', () => {
    const big = fc.jsonValue({ maxDepth: 8 }).map((v) => Array.from({ length: 30 }, () => v));
    fc.assert(
      fc.property(big, (value) => {
        const text = JSON.stringify(echoInput(value));
        // Each character of text escapes to at most 6 in JSON; each value adds a little structure.
        assert.ok(text.length <= 6 * MAX_INPUT_TEXT + 40 * MAX_INPUT_VALUES, `${text.length} characters`);
      }),
      { numRuns: 100 },
    );
  });

  it('is the input itself when it is small, shallow and holds no secret', () => {
    const small = fc.jsonValue({ maxDepth: 3 }).filter((v) => {
      const text = JSON.stringify(v);
      return (
        text.length < 500 &&
        !/secret|passw|token|key|auth|credential|signature|cookie|:\/\//i.test(text) &&
        !JSON.stringify(v, (_k, x) =>
          (Array.isArray(x) && x.length > 20) ||
          (x && typeof x === 'object' && Object.keys(x).length > 20) ||
          (typeof x === 'string' && x.length > 200)
            ? 'TOO_BIG'
            : x,
        ).includes('TOO_BIG')
      );
    });
    fc.assert(
      fc.property(small, (value) => {
        assert.deepEqual(echoInput(value), value);
      }),
      { numRuns: 300 },
    );
  });

  it('walks 100,000 levels of nesting without recursing through them', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.deepEqual(echoInput(deep), [[[['[truncated]']]]]);
  });

  it('hides the user-info of a URL, also when the cut falls inside it', () => {
    assert.equal(echoInput('https://user:pw@hooks.example/x'), 'https://[redacted]@hooks.example/x');
    assert.equal(echoInput(`https://user:${'p'.repeat(300)}@hooks.example/x`), 'https://[redacted]@hooks.example/x');
    assert.equal(echoInput(`https://user:${'p'.repeat(5000)}@hooks.example/x`), 'https://[redacted]');
    assert.equal(echoInput('https://hooks.example/x'), 'https://hooks.example/x');
  });

  it('names secret-like fields case-insensitively', () => {
    for (const name of ['secret', 'Secret', 'SECRET', 'client_secret', 'password', 'apiKey', 'X-Api-Key', 'access_token'])
      assert.ok(isSecretName(name), name);
    for (const name of ['url', 'email', 'status', 'subscribed_events', 'limit']) assert.ok(!isSecretName(name), name);
  });
});
