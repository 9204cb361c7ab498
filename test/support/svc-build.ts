import { join } from 'node:path';
import { ROOT } from './source-digest.ts';

const SVC_BIN = join(ROOT, 'bin/svc');

/** How to start `svc`: a program, the arguments before svc's own, and what to add to the environment. */
export interface SvcCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * How the tests start `svc` as a child process. Under `npm test`: node on the run's own build of
 * src/main.ts (SVC_TEST_MAIN, set by scripts/run-tests.mjs, compiled with the test files from the
 * same sources), about 0.6 s less start-up than tsx. Otherwise (a test file run by hand, or the
 * suite through tsx): bin/svc, which runs the production build, rebuilt when a source is newer,
 * or the TypeScript through tsx when SVC_FROM_SOURCE=1 (docs/development.md).
 */
export function svcCommand(): SvcCommand {
  const main = process.env.SVC_TEST_MAIN;
  return main ? { command: process.execPath, args: [main], env: {} } : { command: SVC_BIN, args: [], env: {} };
}

/** `svc <args>` as one shell word list (for script(1), which takes a command line). */
export function svcCommandLine(args: string[]): string {
  const { command, args: before, env } = svcCommand();
  const words = [...Object.entries(env).map(([k, v]) => `${k}=${v}`), command, ...before, ...args];
  return words.map((w) => (/^[\w./:=@-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
