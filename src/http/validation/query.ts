import type { ParameterizedContext } from 'koa';
import { readFields, type FieldSpecs, type ParsedFields } from '../../domain/fields.ts';
import { throwValidation } from './issues.ts';

/** The query as single strings; a repeated parameter counts by its last value, as in FastAPI. */
export function queryValues(ctx: ParameterizedContext): Record<string, string> {
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
export function parseQuery<S extends FieldSpecs>(ctx: ParameterizedContext, spec: S): ParsedFields<S> {
  const { value, issues } = readFields(queryValues(ctx), spec, 'query', null);
  if (issues.length > 0) throwValidation(issues);
  return value;
}
