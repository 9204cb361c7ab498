/*
 * The one definition of a validation issue (docs/decisions.md §1) and its builders, named after
 * pydantic v2's error types with its messages. Pure: the HTTP layer (src/http/validation/) turns a
 * list of them into a 422, and services (webhook registration) build them without depending on it.
 * In domain, not src/http/validation/, because the CLI uses them too: `svc admin register-webhook`
 * and `rotate-secret` report the same issues as the HTTP routes.
 */
import { AppError } from './app-error.ts';
import { echoInput } from './echo-input.ts';

/** Where an issue is: `['query', 'limit']`, `['body', 'email']`, `['body', 17]` (JSON char offset). */
export type Loc = (string | number)[];

/**
 * One entry of a 422 `detail` array, exactly as FastAPI/pydantic v2 produce it. Key order matters
 * on the wire: build issues with `issue()` so it is always type, loc, msg, input, ctx.
 */
export interface ValidationIssue {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/**
 * Builds an issue. `input` is echoed bounded (src/domain/echo-input.ts): strings cut to 200
 * characters, containers cut in depth and size, secret-like fields (by the last element of `loc`,
 * or any key inside) redacted.
 */
export function issue(type: string, loc: Loc, msg: string, input: unknown, ctx?: Record<string, unknown>): ValidationIssue {
  const out: ValidationIssue = { type, loc, msg, input: echoInput(input, loc.at(-1)) };
  if (ctx !== undefined) out.ctx = ctx;
  return out;
}

/** pydantic's wording of `Input should be 'a' or 'b'` / `'a', 'b' or 'c'`. */
export function expectedList(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Issue builders named after pydantic's error types, with its messages. */
export const issues = {
  missing: (loc: Loc, input: unknown) => issue('missing', loc, 'Field required', input),
  extraForbidden: (loc: Loc, input: unknown) => issue('extra_forbidden', loc, 'Extra inputs are not permitted', input),
  intParsing: (loc: Loc, input: unknown) =>
    issue('int_parsing', loc, 'Input should be a valid integer, unable to parse string as an integer', input),
  intType: (loc: Loc, input: unknown) => issue('int_type', loc, 'Input should be a valid integer', input),
  boolParsing: (loc: Loc, input: unknown) =>
    issue('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input),
  boolType: (loc: Loc, input: unknown) => issue('bool_type', loc, 'Input should be a valid boolean', input),
  greaterThanEqual: (loc: Loc, input: unknown, ge: number) =>
    issue('greater_than_equal', loc, `Input should be greater than or equal to ${ge}`, input, { ge }),
  lessThanEqual: (loc: Loc, input: unknown, le: number) =>
    issue('less_than_equal', loc, `Input should be less than or equal to ${le}`, input, { le }),
  stringType: (loc: Loc, input: unknown) => issue('string_type', loc, 'Input should be a valid string', input),
  stringTooShort: (loc: Loc, input: unknown, minLength: number) =>
    issue('string_too_short', loc, `String should have at least ${plural(minLength, 'character')}`, input, { min_length: minLength }),
  stringTooLong: (loc: Loc, input: unknown, maxLength: number) =>
    issue('string_too_long', loc, `String should have at most ${plural(maxLength, 'character')}`, input, { max_length: maxLength }),
  stringPatternMismatch: (loc: Loc, input: unknown, pattern: string) =>
    issue('string_pattern_mismatch', loc, `String should match pattern '${pattern}'`, input, { pattern }),
  literalError: (loc: Loc, input: unknown, values: readonly string[]) =>
    issue('literal_error', loc, `Input should be ${expectedList(values)}`, input, { expected: expectedList(values) }),
  listType: (loc: Loc, input: unknown) => issue('list_type', loc, 'Input should be a valid list', input),
  listTooShort: (loc: Loc, input: unknown, minLength: number, actual: number) =>
    issue('too_short', loc, `List should have at least ${plural(minLength, 'item')} after validation, not ${actual}`, input, {
      field_type: 'List',
      min_length: minLength,
      actual_length: actual,
    }),
  /**
   * A custom check's failure. FastAPI serialises the ValueError kept in ctx as `{}`, so the wire
   * carries `"ctx": {"error": {}}`; the reason is in msg.
   */
  valueError: (loc: Loc, input: unknown, reason: string) => issue('value_error', loc, `Value error, ${reason}`, input, { error: {} }),
  modelAttributesType: (loc: Loc, input: unknown) =>
    issue('model_attributes_type', loc, 'Input should be a valid dictionary or object to extract fields from', input),
  jsonInvalid: (offset: number, parserMessage: string) =>
    issue('json_invalid', ['body', offset], 'JSON decode error', {}, { error: parserMessage }),
};

/**
 * The 422 error carrying every issue at once (invalid_input, the issues in `extra.issues`): the
 * HTTP error middleware renders `{detail: issues}`, the CLI prints the message. `subject` names
 * what was invalid, for that message.
 */
export function validationError(found: readonly ValidationIssue[], subject?: string): AppError {
  const summary = found.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
  return new AppError('invalid_input', subject ? `invalid ${subject}: ${summary}` : summary, { extra: { issues: [...found] } });
}
