/*
 * Validation issues of webhook registration: the shape and builders of src/domain/validation-issues.ts
 * (the same ones the HTTP layer renders as a 422), so services never import src/http.
 */
export { issues } from '../../domain/validation-issues.ts';
export type { Loc, ValidationIssue } from '../../domain/validation-issues.ts';
