/*
 * Pydantic-v2-style request validation shared by every route (docs/decisions.md §1): parse query and
 * JSON bodies, collect every issue, throw one 422 whose body is `{"detail": [issues…]}`.
 */
export { MAX_BODY_BYTES, isJsonContentType, parseJsonBody, readJsonBody } from './body.ts';
export { MAX_JSON_DEPTH } from './json-error.ts';
export { bool, int, list, literal, readFields, refine, str } from './fields.ts';
export type { FieldParser, FieldSpec, Parsed, ParsedFields } from './fields.ts';
export { echoInput, issue, issues, issuesOf, throwValidation, validationError } from './issues.ts';
export type { Loc, ValidationIssue } from './issues.ts';
export { parseQuery, queryBool, queryInt, queryString, queryValues } from './query.ts';
