import type { AppError } from '../../domain/app-error.ts';
import { validationError, type ValidationIssue } from '../../domain/validation-issues.ts';

// The issue shape, its builders and the 422 error are defined once, in the domain; services use them too.
export { expectedList, issue, issues, validationError } from '../../domain/validation-issues.ts';
export { echoInput } from '../../domain/echo-input.ts';
export type { Loc, ValidationIssue } from '../../domain/validation-issues.ts';

export function throwValidation(issues: readonly ValidationIssue[]): never {
  throw validationError(issues);
}

/** Issues of an invalid_input AppError built by validationError, or undefined for any other error. */
export function issuesOf(err: AppError): ValidationIssue[] | undefined {
  const issues = err.extra.issues;
  return err.code === 'invalid_input' && Array.isArray(issues) ? (issues as ValidationIssue[]) : undefined;
}
