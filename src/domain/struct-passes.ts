import type { Context, Struct } from 'superstruct';

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
  if (typeof value === 'object' && value !== null) {
    for (const [, child, childStruct] of struct.entries(value, context)) {
      if (!passes(child, childStruct as Struct<unknown, unknown>, context)) return false;
    }
  }
  return none(struct.refiner(value, context));
}
