import { Struct, type Context } from 'superstruct';

/**
 * Whether `value` passes `struct`, as superstruct's `validate` (without coercion) decides it, by
 * asking the same struct the same questions: each node's validator, its entries (an object's
 * fields, an array's elements), then its refiner. Unlike `validate`, it keeps no path, makes no
 * failure and stops at the first one: superstruct walks each node with a generator of its own and
 * a copy of the path, two thirds of the time of checking an ingested record (docs/ingest.md,
 * "Speed"). A value that fails is checked again with `validate`, which says where and why.
 */
export function passesStruct<T, S>(value: unknown, struct: Struct<T, S>): boolean {
  // The context superstruct hands its validators: theirs never read it, and no failure is kept here.
  return passes(value, struct as Struct<unknown, unknown>, { path: [], branch: [value] });
}

const none = (failures: Iterable<unknown>) => failures[Symbol.iterator]().next().done === true;

function passes(value: unknown, struct: Struct<unknown, unknown>, context: Context): boolean {
  if (!none(struct.validator(value, context))) return false;
  // Only an object or an array has entries (superstruct's object, type, record, array, tuple, map
  // and set; lazy and dynamic ask the struct they stand for): a string or a number has none.
  if (typeof value === 'object' && value !== null && !entriesPass(value, struct, context)) return false;
  return none(struct.refiner(value, context));
}

type AnyStruct = Struct<unknown, unknown>;

/**
 * Whether every entry of an object or array passes its struct. superstruct's `object`, `type` and
 * `array` hand their entries out through a generator (`entries`), a third of the time of checking
 * an ingested record; for these three the same entries are walked here from their `schema`, as
 * their generators make them: `object` every field of the schema and any other key (which fails,
 * as superstruct's `never` does), `type` the schema's fields only, `array` every element. Any
 * other struct's entries come from its generator. test/domain/struct-passes.test.ts holds this
 * equal to superstruct's validate.
 */
function entriesPass(value: object, struct: AnyStruct, context: Context): boolean {
  const schema: unknown = struct.schema;
  if ((struct.type === 'object' || struct.type === 'type') && typeof schema === 'object' && schema !== null) {
    const fields = schema as Record<string, AnyStruct>;
    for (const key in fields) if (!passes((value as Record<string, unknown>)[key], fields[key]!, context)) return false;
    if (struct.type === 'object') for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key)) return false;
    return true;
  }
  if (struct.type === 'array' && Array.isArray(value) && schema instanceof Struct) {
    for (const item of value) if (!passes(item, schema, context)) return false;
    return true;
  }
  for (const [, child, childStruct] of struct.entries(value, context)) {
    if (!passes(child, childStruct as AnyStruct, context)) return false;
  }
  return true;
}
