import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonShapeClean, jsonShapeProblems } from '../../src/domain/json-shape.ts';

const demo = JSON.parse(readFileSync('fixtures/demo.json', 'utf8')) as Record<string, unknown>;

/** Text made of the pieces the shape check looks for: NUL, lone and paired surrogates, a refused key. */
const text = fc
  .array(fc.constantFrom('a', 'é', ' ', '\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '__proto__'), {
    maxLength: 4,
  })
  .map((parts) => parts.join(''));

/** Any JSON-like value, nested up to 8 levels, its keys and strings drawn from `text`. */
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
}));

describe('jsonShapeClean decides as jsonShapeProblems finding nothing', () => {
  it('on generated values, at any depth limit, with and without refused keys', () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), fc.boolean(), (v, maxDepth, refuse) => {
        const refused = refuse ? ['__proto__'] : [];
        assert.equal(jsonShapeClean(v, maxDepth, refused), jsonShapeProblems(v, maxDepth, refused).length === 0);
      }),
      { numRuns: 5000 },
    );
  });

  it('on the demo fixture file (clean), and on nesting far past the limit without overflowing the stack', () => {
    assert.equal(jsonShapeClean(demo), true);
    assert.deepEqual(jsonShapeProblems(demo), []);
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    assert.equal(jsonShapeClean({ a: 'fine', deep }), false);
    assert.equal(jsonShapeClean({ a: [[['fine']]] }, 4), true);
    assert.equal(jsonShapeClean({ a: [[[['too deep']]]] }, 4), false);
  });
});
