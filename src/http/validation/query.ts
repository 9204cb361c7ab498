import type { ParameterizedContext } from 'koa';
import { bool, int, readFields, str, type FieldSpec, type ParsedFields } from './fields.ts';
import { throwValidation } from './issues.ts';

/** The query as single strings; a repeated parameter counts by its last value, as in FastAPI. */
export function queryValues(ctx: ParameterizedContext<any>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) {
      if (value.length > 0) out[name] = value[value.length - 1]!;
    } else if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Parses the query parameters named in `spec`, reporting every bad one in a single 422. Unknown
 * parameters are ignored, as FastAPI does.
 *
 *   const q = parseQuery(ctx, { limit: { parse: int({ ge: 1, le: 200 }), default: 50 }, cursor: { parse: str() } });
 */
export function parseQuery<S extends Record<string, FieldSpec<any>>>(ctx: ParameterizedContext<any>, spec: S): ParsedFields<S> {
  const { value, issues } = readFields(queryValues(ctx), spec, 'query', null);
  if (issues.length > 0) throwValidation(issues);
  return value;
}

/** One integer query parameter: `queryInt(ctx, 'limit', { ge: 1, le: 200, default: 50 })`. */
export function queryInt(ctx: ParameterizedContext<any>, name: string, opts: { ge?: number; le?: number; default: number }): number;
export function queryInt(ctx: ParameterizedContext<any>, name: string, opts?: { ge?: number; le?: number; required?: boolean }): number | undefined;
export function queryInt(
  ctx: ParameterizedContext<any>, name: string, opts: { ge?: number; le?: number; default?: number; required?: boolean } = {},
): number | undefined {
  return parseQuery(ctx, { [name]: { parse: int(opts), default: opts.default, required: opts.required } })[name] as number | undefined;
}

/** One boolean query parameter (`true/false/1/0/yes/no/on/off/t/f/y/n`), else 422 bool_parsing. */
export function queryBool(ctx: ParameterizedContext<any>, name: string, opts: { default: boolean }): boolean {
  return parseQuery(ctx, { [name]: { parse: bool(), default: opts.default } })[name] as boolean;
}

/** One string query parameter, optionally constrained. */
export function queryString(
  ctx: ParameterizedContext<any>, name: string, opts: { minLength?: number; maxLength?: number; pattern?: RegExp; required?: boolean } = {},
): string | undefined {
  return parseQuery(ctx, { [name]: { parse: str(opts), required: opts.required } })[name] as string | undefined;
}
