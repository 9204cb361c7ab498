import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { array, boolean, intersection, lazy, nullable, number, object, optional, record, string, tuple, type, union } from 'superstruct';

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

/**
 * Any JSON value, and often an object holding `toString` or `valueOf` as data, as JSON can say
 * (`{"toString": 1}`): superstruct cannot print such an object when it fails.
 */
export const jsonWithTraps = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(fc.constantFrom('toString', 'valueOf', 'name'), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1 }),
  fc.array(fc.dictionary(fc.constantFrom('toString', 'valueOf'), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1 }), {
    minLength: 1,
    maxLength: 2,
  }),
);

/** A valid value with one place changed: set to `replacement`'s value, removed, or given a key no struct names. */
export const mutated = (valid: unknown, replacement: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 })) =>
  fc.tuple(fc.nat(), fc.constantFrom('set', 'remove', 'extra'), replacement).map(([at, how, value]) => {
    const copy = structuredClone(valid);
    const all = places(copy);
    if (all.length === 0) return value;
    const { container, key } = all[at % all.length]!;
    if (how === 'set') (container as Record<string | number, unknown>)[key] = value;
    else if (how === 'remove' && Array.isArray(container)) container.splice(key as number, 1);
    else if (how === 'remove') delete (container as Record<string, unknown>)[key as string];
    else {
      const target = (container as Record<string | number, unknown>)[key];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Record<string, unknown>).not_a_field = value;
      else (container as Record<string | number, unknown>)[key] = { not_a_field: value };
    }
    return copy;
  });

/** The demo fixture file, sliced to one or two records of each section. */
export function demoSlices(): fc.Arbitrary<Record<string, unknown>> {
  const demo = JSON.parse(readFileSync('fixtures/demo.json', 'utf8')) as Record<string, unknown>;
  const slice = fc.record({ from: fc.nat({ max: 80 }), size: fc.integer({ min: 1, max: 2 }) });
  return slice.map(({ from, size }) =>
    Object.fromEntries(Object.entries(demo).map(([section, v]) => [section, Array.isArray(v) ? v.slice(from, from + size) : v])),
  );
}

/** The requirement catalogue's definitions. */
export const catalogueDefinitions = () =>
  (JSON.parse(readFileSync('data/requirements.json', 'utf8')) as { requirements: unknown[] }).requirements;

/** A struct of superstruct's other containers (type, tuple, union, intersection, lazy, record), and a value it passes. */
export function otherContainers() {
  const Leaf = nullable(union([string(), number()]));
  const struct = object({
    kind: optional(type({ name: string() })),
    pair: optional(tuple([string(), boolean()])),
    both: optional(intersection([type({ a: number() }), type({ b: Leaf })])),
    later: optional(lazy(() => array(Leaf))),
    map: optional(record(string(), Leaf)),
  });
  const valid = { kind: { name: 'x', more: 1 }, pair: ['a', true], both: { a: 1, b: null }, later: ['a', 2, null], map: { k: 'v' } };
  return { struct, valid };
}
