/*
 * Pydantic-v2-style request validation shared by every route (docs/decisions.md §1): parse query and
 * JSON bodies, collect every issue, throw one 422 whose body is `{"detail": [issues…]}`.
 */
export { MAX_BODY_BYTES, isJsonContentType, parseJsonBody, readJsonBody } from './body.ts';
export { MAX_JSON_DEPTH } from './json-error.ts';
export { bool, fieldSchema, int, list, literal, objectSchema, readFields, refine, str } from '../../domain/fields.ts';
export type { FieldParser, FieldSpec, FieldSpecs, JsonSchema, Parsed, ParsedFields } from '../../domain/fields.ts';
export { echoInput, issue, issues, issuesOf, throwValidation, validationError } from './issues.ts';
export type { Loc, ValidationIssue } from './issues.ts';
export { parseQuery, queryValues } from './query.ts';
