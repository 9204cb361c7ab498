/**
 * One validation error in the shape FastAPI/pydantic v2 report it (DECISIONS.md §1): keys in the
 * order type, loc, msg, input, ctx; ctx only for types that have one. The same shape as
 * src/http/validation/issues.ts, kept here so services do not depend on the HTTP layer.
 */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

const MAX_INPUT_CHARS = 200;

/** Never echo large input: strings are cut to 200 characters. */
function echo(input: unknown): unknown {
  return typeof input === 'string' && input.length > MAX_INPUT_CHARS ? input.slice(0, MAX_INPUT_CHARS) : input;
}

function issue(type: string, loc: (string | number)[], msg: string, input: unknown, ctx?: Record<string, unknown>): ValidationIssue {
  return ctx === undefined ? { type, loc, msg, input: echo(input) } : { type, loc, msg, input: echo(input), ctx };
}

/** `'a', 'b' or 'c'`, as pydantic lists the allowed literals. */
function expectedList(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

export const issues = {
  missing: (loc: (string | number)[], input: unknown) => issue('missing', loc, 'Field required', input ?? null),
  modelType: (loc: (string | number)[], input: unknown) =>
    issue('model_attributes_type', loc, 'Input should be a valid dictionary or object to extract fields from', input),
  extraForbidden: (loc: (string | number)[], input: unknown) => issue('extra_forbidden', loc, 'Extra inputs are not permitted', input),
  stringType: (loc: (string | number)[], input: unknown) => issue('string_type', loc, 'Input should be a valid string', input),
  listType: (loc: (string | number)[], input: unknown) => issue('list_type', loc, 'Input should be a valid list', input),
  listTooShort: (loc: (string | number)[], input: unknown[], min: number) =>
    issue('too_short', loc, `List should have at least ${min} item${min === 1 ? '' : 's'} after validation, not ${input.length}`, input,
      { field_type: 'List', min_length: min, actual_length: input.length }),
  stringTooShort: (loc: (string | number)[], input: string, min: number) =>
    issue('string_too_short', loc, `String should have at least ${min} character${min === 1 ? '' : 's'}`, input, { min_length: min }),
  stringTooLong: (loc: (string | number)[], input: string, max: number) =>
    issue('string_too_long', loc, `String should have at most ${max} character${max === 1 ? '' : 's'}`, input, { max_length: max }),
  literal: (loc: (string | number)[], input: unknown, allowed: readonly string[]) =>
    issue('literal_error', loc, `Input should be ${expectedList(allowed)}`, input, { expected: expectedList(allowed) }),
  /**
   * A custom check, as pydantic reports a ValueError raised by a validator. FastAPI serialises the
   * ValueError kept in ctx as `{}` (as src/http/validation does); the reason is in msg.
   */
  valueError: (loc: (string | number)[], input: unknown, message: string) =>
    issue('value_error', loc, `Value error, ${message}`, input, { error: {} }),
};
