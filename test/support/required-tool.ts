import { existsSync } from 'node:fs';

/**
 * A program some tests run (promtool, systemd-analyze, nginx…), from a Debian package .ci/run
 * installs when missing. Where it is missing, the tests that need it are skipped with a message,
 * except under CI=true: there they run, and each fails naming the tool it lacks when it first asks
 * for it (`path()`), while the other tests of its file run as usual.
 */
export interface RequiredTool {
  /** Where it is, if it is. */
  found: string | undefined;
  /** For a test's `skip` option: a reason, or false (present, or CI=true). */
  skip: string | false;
  /** Its path; throws, naming the tool and its package, when it is missing. */
  path(): string;
}

/** `override` (a setting such as SVC_PROMTOOL) replaces the usual places when given. */
export function requiredTool(name: string, debianPackage: string, places: string[], override?: string): RequiredTool {
  const found = (override !== undefined ? [override] : places).find((p) => existsSync(p));
  const missing = `${name} (Debian package ${debianPackage}) is not installed${override !== undefined ? ` at ${override}` : ''}`;
  return {
    found,
    skip: found || process.env.CI === 'true' ? false : `${missing}: test skipped (apt-get install ${debianPackage})`,
    path() {
      if (!found) throw new Error(`${missing}; under CI=true its tests must run: .ci/run installs it`);
      return found;
    },
  };
}
