import { validate, type Struct, type StructError } from 'superstruct';
import { passesStruct } from './struct-passes.ts';

/**
 * superstruct's `validate` (without coercion) of a parsed JSON value, answering for every value
 * instead of throwing for some. superstruct writes a failing value into its failure's message with
 * `${value}`, and that throws a TypeError when the value is an object whose own `toString` is not
 * a function, or an array holding one: JSON can say `{"toString": 1}`. Such a value is validated
 * again as a copy in which every object prints as any other does (`[object Object]`); the copy has
 * the same keys and values, so it has the same verdict and its failures the same paths.
 *
 * A value that passes is asked only whether it passes (passesStruct, which prints nothing for a
 * passing value), and returned as it is. The failures of one that does not are all made here.
 */
export function validateJson<T, S>(value: unknown, struct: Struct<T, S>): [StructError, undefined] | [undefined, T] {
  try {
    if (passesStruct(value, struct)) return [undefined, value as T];
    const result = validate(value, struct);
    // A StructError makes its failures after the first only when asked: ask here, where a throw is caught.
    result[0]?.failures();
    return result;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    // A TypeError that is not about printing the value throws again from the copy.
    return validate(printable(value), struct);
  }
}

/** A copy of a JSON value whose objects print as `[object Object]`, whatever keys they hold. */
function printable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(printable);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines each key as JSON.parse does, `__proto__` included, as an own property.
  const copy = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, printable(child)]));
  // A symbol key: no struct, no Object.keys and no JSON.stringify sees it.
  Object.defineProperty(copy, Symbol.toPrimitive, { value: () => '[object Object]' });
  return copy;
}
