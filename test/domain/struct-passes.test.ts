import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  array,
  boolean,
  intersection,
  lazy,
  nullable,
  number,
  object,
  optional,
  record,
  string,
  tuple,
  type,
  union,
  validate,
  type Struct,
} from 'superstruct';
import { RequirementDefinition } from '../../src/domain/catalogue.ts';
import { passesStruct } from '../../src/domain/struct-passes.ts';
import { FixtureFile } from '../../src/services/fixtures/schema.ts';

const demo = JSON.parse(readFileSync('fixtures/demo.json', 'utf8')) as Record<string, unknown>;
const requirements = (JSON.parse(readFileSync('data/requirements.json', 'utf8')) as { requirements: unknown[] }).requirements;

/** Every place in a JSON value: the containers on the way and the key of the value in the last one. */
function places(value: unknown, into: Array<{ container: Record<string, unknown> | unknown[]; key: string | number }> = []) {
  const children: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
      : [];
  for (const [key, child] of children) {
    into.push({ container: value as Record<string, unknown> | unknown[], key });
    places(child, into);
  }
  return into;
}

/** A valid value with one place changed: set to any JSON value, removed, or given a key no struct names. */
const mutated = (valid: unknown) =>
  fc.tuple(fc.nat(), fc.constantFrom('set', 'remove', 'extra'), fc.jsonValue({ maxDepth: 2 })).map(([at, how, replacement]) => {
    const value = structuredClone(valid);
    const all = places(value);
    if (all.length === 0) return replacement;
    const { container, key } = all[at % all.length]!;
    if (how === 'set') (container as Record<string | number, unknown>)[key] = replacement;
    else if (how === 'remove' && Array.isArray(container)) container.splice(key as number, 1);
    else if (how === 'remove') delete (container as Record<string, unknown>)[key as string];
    else {
      const target = (container as Record<string | number, unknown>)[key];
      if (typeof target === 'object' && target !== null && !Array.isArray(target))
        (target as Record<string, unknown>).not_a_field = replacement;
      else (container as Record<string | number, unknown>)[key] = { not_a_field: replacement };
    }
    return value;
  });

/** The oracle: superstruct's own validate, without coercion. */
/** What a check answers, or `throws`: superstruct cannot print a value whose toString is not a function, and throws. */
const verdict = (check: () => boolean): boolean | 'throws' => {
  try {
    return check();
  } catch {
    return 'throws';
  }
};
const validates = <T, S>(value: unknown, struct: Struct<T, S>) => verdict(() => validate(value, struct)[0] === undefined);
const passes = <T, S>(value: unknown, struct: Struct<T, S>) => verdict(() => passesStruct(value, struct));

describe('passesStruct decides as superstruct validate does', () => {
  it('on the demo fixture file, valid and with one place changed (every entity of the change format)', () => {
    assert.equal(passesStruct(demo, FixtureFile), true);
    const slice = fc.record({ from: fc.nat({ max: 80 }), size: fc.integer({ min: 1, max: 2 }) });
    const sample = slice.map(({ from, size }) =>
      Object.fromEntries(Object.entries(demo).map(([section, v]) => [section, Array.isArray(v) ? v.slice(from, from + size) : v])),
    );
    fc.assert(
      fc.property(sample.chain(mutated), (value) => assert.equal(passes(value, FixtureFile), validates(value, FixtureFile))),
      { numRuns: 800 },
    );
  });

  it('on the requirement catalogue (records, nested arrays), valid and with one place changed', () => {
    for (const r of requirements) assert.equal(passesStruct(r, RequirementDefinition), true);
    fc.assert(
      fc.property(fc.constantFrom(...requirements).chain(mutated), (value) =>
        assert.equal(passes(value, RequirementDefinition), validates(value, RequirementDefinition)),
      ),
      { numRuns: 2000 },
    );
  });

  it("on superstruct's other containers (type, tuple, union, intersection, lazy, record) and any JSON value", () => {
    const Leaf = nullable(union([string(), number()]));
    const Struct = object({
      kind: optional(type({ name: string() })),
      pair: optional(tuple([string(), boolean()])),
      both: optional(intersection([type({ a: number() }), type({ b: Leaf })])),
      later: optional(lazy(() => array(Leaf))),
      map: optional(record(string(), Leaf)),
    });
    const valid = { kind: { name: 'x', more: 1 }, pair: ['a', true], both: { a: 1, b: null }, later: ['a', 2, null], map: { k: 'v' } };
    assert.equal(passesStruct(valid, Struct), true);
    fc.assert(
      fc.property(fc.oneof(mutated(valid), fc.jsonValue()), (value) => assert.equal(passes(value, Struct), validates(value, Struct))),
      { numRuns: 3000 },
    );
  });
});
