import { AppError, isAppError } from '../domain/app-error.ts';
import type { ValidationIssue } from '../domain/validation-issues.ts';

/**
 * A command that builds an HTTP-shaped body from its flags (register-webhook, rotate-secret) gets
 * back issues located in that body (`body.subscribed_events.0`); the user typed `--events`. This
 * rewrites an invalid_input error in the flags' words, one line, pointing to the command's help;
 * the issues themselves (extra.issues) and the exit code stay as they were.
 *
 *   await inFlagWords({ url: '--url', subscribed_events: '--events' }, 'svc admin register-webhook', () => register(…));
 */
export async function inFlagWords<T>(flags: Record<string, string>, command: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!isAppError(err) || err.code !== 'invalid_input' || !Array.isArray(err.extra.issues)) throw err;
    const found = err.extra.issues as ValidationIssue[];
    const said = found.map((i) => flagProblem(i, flags)).join('; ');
    throw new AppError('invalid_input', `${said} (${command} --help lists what it accepts)`, { extra: err.extra, cause: err });
  }
}

function flagProblem(found: ValidationIssue, flags: Record<string, string>): string {
  const [where, field, item] = found.loc;
  const flag = where === 'body' && typeof field === 'string' ? flags[field] : undefined;
  const msg = found.msg.replace(/^Value error, /, '');
  if (!flag) return `${found.loc.join('.')}: ${msg}`;
  // Messages written for the HTTP body name its field ("activate_at should be…"): say the flag instead.
  const worded = msg.replace(new RegExp(`^${field} `), '').replaceAll(String(field), flag);
  // A list flag (--events a,b) is one value the user typed: name the item by its value, not its index.
  const value = typeof item === 'number' && typeof found.input === 'string' ? ` value "${found.input}"` : '';
  return `${flag}${value}: ${worded}`;
}
