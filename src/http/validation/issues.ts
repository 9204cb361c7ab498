import { AppError } from '../../domain/app-error.ts';
import type { ValidationIssue } from '../../domain/validation-issues.ts';

// The issue shape and its builders are defined once, in the domain; services build them too.
export { expectedList, issue, issues } from '../../domain/validation-issues.ts';
export { echoInput } from '../../domain/echo-input.ts';
export type { Loc, ValidationIssue } from '../../domain/validation-issues.ts';

/** The 422 error carrying every issue at once; the error middleware renders `{detail: issues}`. */
export function validationError(issues: readonly ValidationIssue[]): AppError {
  return new AppError('invalid_input', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '), {
    extra: { issues: [...issues] },
  });
}

export function throwValidation(issues: readonly ValidationIssue[]): never {
  throw validationError(issues);
}

/** Issues of an invalid_input AppError built by validationError, or undefined for any other error. */
export function issuesOf(err: AppError): ValidationIssue[] | undefined {
  const issues = err.extra.issues;
  return err.code === 'invalid_input' && Array.isArray(issues) ? (issues as ValidationIssue[]) : undefined;
}
