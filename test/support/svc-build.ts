import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sourceDigest } from './source-digest.ts';

const builds = join(ROOT, '.build');
const SVC_BIN = join(ROOT, 'bin/svc');

/** What the build is made from: the sources, the build script and what configures it. */
const inputsDigest = () => sourceDigest(['src', 'scripts/build.mjs', 'tsconfig.json', 'package.json', 'package-lock.json']);

/**
 * Builds into .build/test-<digest>/js/ with scripts/build.mjs's own `buildInto` (in a child, so the
 * caller stays synchronous). Built under a name of its own and renamed into place, so a test file
 * starting meanwhile sees a whole build or none; two files building at once keep the first. The
 * sources are digested again after the build: one edited meanwhile leaves no build under either name.
 */
function buildFor(digest: string): string | undefined {
  const name = `test-${digest}`;
  const main = join(builds, name, 'js/main.js');
  if (existsSync(main)) return main;
  const temporary = `${name}.${process.pid}.${Date.now()}`;
  try {
    const script = new URL('../../scripts/build.mjs', import.meta.url).href;
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `await (await import(${JSON.stringify(script)})).buildInto(${JSON.stringify(temporary)})`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    if (inputsDigest() !== digest) return undefined;
    renameSync(join(builds, temporary), join(builds, name));
  } catch {
    // A failed build (the sources do not compile) leaves the children to tsx, which reports why.
  } finally {
    rmSync(join(builds, temporary), { recursive: true, force: true });
  }
  if (!existsSync(main)) return undefined;
  removeOldTestBuilds(name);
  return main;
}

/** Test builds of other sources, made over an hour ago (no run still starting children from them). */
function removeOldTestBuilds(keep: string): void {
  for (const entry of readdirSync(builds)) {
    if (!entry.startsWith('test-') || entry === keep) continue;
    const path = join(builds, entry);
    // Another test file may have removed it a moment ago.
    const made = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (made < Date.now() - 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}

/** How to start `svc`: a program, the arguments before svc's own, and what to add to the environment. */
export interface SvcCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

let resolved: SvcCommand | undefined;

/**
 * How the tests start `svc` as a child process: node on an esbuild build of this checkout's
 * current sources (about 0.6 s less start-up than tsx, whose transform and evaluation of the whole
 * CLI costs each child some 1.4 s of CPU), made on first use and found again by the digest of
 * the sources, so a build of other sources is never run. Where no build can be made, `bin/svc`
 * through tsx (SVC_FROM_SOURCE=1). Set SVC_TEST_CHILDREN=source to have every child run through tsx.
 */
export function svcCommand(): SvcCommand {
  if (resolved) return resolved;
  const main = process.env.SVC_TEST_CHILDREN === 'source' ? undefined : buildFor(inputsDigest());
  resolved = main ? { command: process.execPath, args: [main], env: {} } : { command: SVC_BIN, args: [], env: { SVC_FROM_SOURCE: '1' } };
  return resolved;
}

/** `svc <args>` as one shell word list (for script(1), which takes a command line). */
export function svcCommandLine(args: string[]): string {
  const { command, args: before, env } = svcCommand();
  const words = [...Object.entries(env).map(([k, v]) => `${k}=${v}`), command, ...before, ...args];
  return words.map((w) => (/^[\w./:=@-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
