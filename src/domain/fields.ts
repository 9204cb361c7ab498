import { issues, type Loc, type ValidationIssue } from './validation-issues.ts';

/*
 * Field parsers shared by the HTTP layer (query strings, JSON bodies) and services (webhook
 * registration): pydantic v2's lax rules and error types. Each parser carries the JSON Schema of
 * what it accepts, so the OpenAPI document states the same rules (src/openapi/operation.ts). In
 * domain, not src/http/validation/, because the CLI uses them too: `svc admin register-webhook`
 * and `rotate-secret` validate their input with the same parsers as the HTTP routes.
 */

/** A JSON Schema fragment (OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** A parsed value or the issues that stopped it, never both. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses one input value (a query string, or any JSON value of a body field) at `loc`, the way
 * pydantic's lax mode does: numeric strings are integers, 'yes'/'0' are booleans, and so on.
 */
export interface FieldParser<T> {
  (input: unknown, loc: Loc): Parsed<T>;
  /** What the parser accepts, as JSON Schema. */
  readonly schema: JsonSchema;
}

function parser<T>(schema: JsonSchema, parse: (input: unknown, loc: Loc) => Parsed<T>): FieldParser<T> {
  return Object.assign(parse, { schema });
}

/** Drops the keys whose value is undefined, so schemas hold only the rules that apply. */
const defined = (o: JsonSchema): JsonSchema => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** How a field of a query or body is read: its parser, and whether it is required or defaulted. */
export interface FieldSpec<T> {
  parse: FieldParser<T>;
  required?: boolean;
  default?: T;
  /** For the OpenAPI document. */
  description?: string;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(...list: ValidationIssue[]): Parsed<T> => ({ ok: false, issues: list });

/** Unicode White_Space, what Rust's `str::trim` strips (JavaScript's `\s` also holds U+FEFF and not U+0085). */
const RUST_WHITE_SPACE = '[\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
/**
 * An integer as text, as pydantic v2 reads one (pydantic-core's str_as_int): trimmed as Rust
 * trims, Python's decimal integer syntax (single underscores between digits), then optionally a
 * fraction of zeros only (`5.0`, `5.00`; not `5.`, `5.5` or `5e0`). Anchored, its parts disjoint:
 * linear in the length of the text.
 */
const INT_TEXT = new RegExp(`^${RUST_WHITE_SPACE}*([+-]?\\d+(?:_\\d+)*)(?:\\.0+)?${RUST_WHITE_SPACE}*$`);
const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** An integer, optionally bounded: `int_parsing`, `greater_than_equal`, `less_than_equal`. */
export function int(bounds: { ge?: number; le?: number } = {}): FieldParser<number> {
  return parser(defined({ type: 'integer', minimum: bounds.ge, maximum: bounds.le }), (input, loc) => {
    let integer: number;
    if (typeof input === 'number' && Number.isInteger(input)) integer = input;
    else if (typeof input === 'string') {
      const digits = INT_TEXT.exec(input)?.[1];
      if (digits === undefined) return fail(issues.intParsing(loc, input));
      // `+ 0`: `-0` is 0, as a Python int.
      integer = Number(digits.replaceAll('_', '')) + 0;
    } else return fail(issues.intType(loc, input));
    // Bounds first, as pydantic, which holds any integer: `limit=` followed by 30 digits is over 200.
    if (bounds.ge !== undefined && integer < bounds.ge) return fail(issues.greaterThanEqual(loc, input, bounds.ge));
    if (bounds.le !== undefined && integer > bounds.le) return fail(issues.lessThanEqual(loc, input, bounds.le));
    if (!Number.isSafeInteger(integer)) return fail(issues.intParsing(loc, input));
    return ok(integer);
  });
}

/** A boolean: JSON true/false, or the words pydantic accepts (`true`, `1`, `yes`, `off`…). */
export function bool(): FieldParser<boolean> {
  return parser({ type: 'boolean' }, (input, loc) => {
    if (typeof input === 'boolean') return ok(input);
    if (input === 0 || input === 1) return ok(input === 1);
    if (typeof input === 'string') {
      const word = input.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return ok(true);
      if (FALSE_WORDS.has(word)) return ok(false);
      return fail(issues.boolParsing(loc, input));
    }
    return fail(issues.boolType(loc, input));
  });
}

/** A string with optional length and pattern constraints (checked in pydantic's order). */
export function str(rules: { minLength?: number; maxLength?: number; pattern?: RegExp } = {}): FieldParser<string> {
  const schema = defined({ type: 'string', minLength: rules.minLength, maxLength: rules.maxLength, pattern: rules.pattern?.source });
  return parser(schema, (input, loc) => {
    if (typeof input !== 'string') return fail(issues.stringType(loc, input));
    // No id, address or token holds NUL, and Postgres text cannot: refused here, never sent to the store.
    if (input.includes('\u0000')) return fail(issues.valueError(loc, input, 'text must not contain NUL characters'));
    if (rules.minLength !== undefined && input.length < rules.minLength) return fail(issues.stringTooShort(loc, input, rules.minLength));
    if (rules.maxLength !== undefined && input.length > rules.maxLength) return fail(issues.stringTooLong(loc, input, rules.maxLength));
    if (rules.pattern && !rules.pattern.test(input)) return fail(issues.stringPatternMismatch(loc, input, rules.pattern.source));
    return ok(input);
  });
}

/** One of a fixed set of strings: `literal_error` with `ctx.expected`. */
export function literal<const V extends string>(values: readonly V[]): FieldParser<V> {
  return parser({ enum: [...values] }, (input, loc) =>
    typeof input === 'string' && (values as readonly string[]).includes(input)
      ? ok(input as V)
      : fail(issues.literalError(loc, input, values)),
  );
}

/** A JSON array whose items all parse; every bad item is reported at its index. */
export function list<T>(item: FieldParser<T>, rules: { minLength?: number } = {}): FieldParser<T[]> {
  return parser(defined({ type: 'array', items: item.schema, minItems: rules.minLength }), (input, loc) => {
    if (!Array.isArray(input)) return fail(issues.listType(loc, input));
    const out: T[] = [];
    const found: ValidationIssue[] = [];
    input.forEach((itemInput, index) => {
      const parsed = item(itemInput, [...loc, index]);
      if (parsed.ok) out.push(parsed.value);
      else found.push(...parsed.issues);
    });
    if (found.length > 0) return fail(...found);
    if (rules.minLength !== undefined && out.length < rules.minLength) {
      return fail(issues.listTooShort(loc, input, rules.minLength, out.length));
    }
    return ok(out);
  });
}

/** A parser with an extra check; `check` returns the reason for a `value_error`, or null. */
export function refine<T>(base: FieldParser<T>, check: (value: T) => string | null): FieldParser<T> {
  return parser(base.schema, (input, loc) => {
    const parsed = base(input, loc);
    if (!parsed.ok) return parsed;
    const reason = check(parsed.value);
    return reason === null ? parsed : fail(issues.valueError(loc, input, reason));
  });
}

/** A parser whose value is converted further; `fn` returns the new value, or the reason for a `value_error`. */
export function convert<T, U>(base: FieldParser<T>, fn: (value: T) => { value: U } | { reason: string }): FieldParser<U> {
  return parser(base.schema, (input, loc) => {
    const parsed = base(input, loc);
    if (!parsed.ok) return parsed;
    const out = fn(parsed.value);
    return 'value' in out ? ok(out.value) : fail(issues.valueError(loc, input, out.reason));
  });
}

/** `null` accepted as such; anything else as `base` reads it. */
export function nullable<T>(base: FieldParser<T>): FieldParser<T | null> {
  return parser({ anyOf: [base.schema, { type: 'null' }] }, (input, loc) => (input === null ? ok(null) : base(input, loc)));
}

/** The fields of a query or a JSON object body, by name. */
export type FieldSpecs = Record<string, FieldSpec<unknown>>;

/**
 * Reads a JSON object body (parsed JSON, or undefined when none was sent) and its fields, with
 * every issue at once: `missing` (no body, or `null`), `model_attributes_type` (not an object),
 * each field's own issues, then `extra_forbidden` per unknown key (unless `extra: 'ignore'`).
 */
export function readObject<S extends FieldSpecs>(
  body: unknown,
  spec: S,
  options: { extra?: 'forbid' | 'ignore' } = {},
): { ok: true; value: ParsedFields<S> } | { ok: false; issues: ValidationIssue[] } {
  if (body === undefined || body === null) return { ok: false, issues: [issues.missing(['body'], null)] };
  if (typeof body !== 'object' || Array.isArray(body)) return { ok: false, issues: [issues.modelAttributesType(['body'], body)] };
  const object = body as Record<string, unknown>;
  const { value, issues: found } = readFields(object, spec, 'body', object);
  if ((options.extra ?? 'forbid') === 'forbid') {
    // Own keys only: `in` would count `constructor` or `toString` as declared, through Object.prototype.
    for (const [key, v] of Object.entries(object)) if (!Object.hasOwn(spec, key)) found.push(issues.extraForbidden(['body', key], v));
  }
  return found.length > 0 ? { ok: false, issues: found } : { ok: true, value };
}

/**
 * The JSON Schema of an object read with `readFields`: its properties, the required ones, and
 * (unless extra keys are ignored) no others.
 */
export function objectSchema(spec: FieldSpecs, options: { extra?: 'forbid' | 'ignore' } = {}): JsonSchema {
  const entries = Object.entries(spec);
  const properties = Object.fromEntries(entries.map(([name, f]) => [name, fieldSchema(f)]));
  const required = entries.filter(([, f]) => f.required).map(([name]) => name);
  return defined({
    type: 'object',
    properties: entries.length > 0 ? properties : undefined,
    maxProperties: entries.length === 0 ? 0 : undefined,
    required: required.length > 0 ? required : undefined,
    additionalProperties: (options.extra ?? 'forbid') === 'forbid' ? false : undefined,
  });
}

/** One field's schema: its parser's, with the default and description of the spec. */
export function fieldSchema(field: FieldSpec<unknown>): JsonSchema {
  return defined({ ...field.parse.schema, default: field.default, description: field.description });
}

/** The parsed shape of a set of field specs: defaulted and required fields are never undefined. */
export type ParsedFields<S> = {
  [K in keyof S]: S[K] extends { parse: FieldParser<infer T> }
    ? S[K] extends { default: unknown } | { required: true }
      ? T
      : T | undefined
    : never;
};

/**
 * Reads every field of `spec` from `source` (a query object or a parsed JSON body), collecting
 * all issues rather than stopping at the first. `whole` is what a `missing` issue echoes as input
 * (pydantic echoes the whole body object; for a query it is null).
 */
export function readFields<S extends FieldSpecs>(
  source: Record<string, unknown>,
  spec: S,
  where: 'query' | 'body',
  whole: unknown,
): { value: ParsedFields<S>; issues: ValidationIssue[] } {
  const value: Record<string, unknown> = {};
  const found: ValidationIssue[] = [];
  for (const [name, field] of Object.entries(spec)) {
    const raw = source[name];
    if (raw === undefined) {
      if (field.required) found.push(issues.missing([where, name], whole));
      else value[name] = field.default;
      continue;
    }
    const parsed = field.parse(raw, [where, name]);
    if (parsed.ok) value[name] = parsed.value;
    else found.push(...parsed.issues);
  }
  return { value: value as ParsedFields<S>, issues: found };
}
