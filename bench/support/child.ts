import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { NODE_OUTPUT } from '../../scripts/build.mjs';

const FROM_SOURCE = process.env.BENCH_FROM_SOURCE === '1';
const builds = new Map<string, Promise<string>>();

/**
 * Where this bench run's builds go: .bench/build-<pid>/js/, three levels below the repository like
 * the production build (so paths the code resolves from its own location hold), and one folder per
 * run, so two bench runs started together do not overwrite each other's build. Removed on exit.
 */
const BUILD_DIR = join('.bench', `build-${process.pid}`);
process.once('exit', () => rmSync(BUILD_DIR, { recursive: true, force: true }));

/**
 * The script compiled as `svc` runs in production (bin/svc runs the esbuild build of src/, with the
 * settings of scripts/build.mjs), once per bench run, into BUILD_DIR. Run through tsx instead,
 * every function the code creates per call was also named at run time (tsx compiles with
 * esbuild's keepNames), which production does not pay. BENCH_FROM_SOURCE=1 runs the TypeScript
 * through tsx.
 */
function compiled(script: string): Promise<string> {
  let built = builds.get(script);
  if (!built) {
    const outfile = join(BUILD_DIR, 'js', basename(script).replace(/\.ts$/, '.js'));
    built = build({ entryPoints: [script], outfile, bundle: true, ...NODE_OUTPUT, logLevel: 'warning' }).then(() => outfile);
    builds.set(script, built);
  }
  return built;
}

/** A server started in its own process, compiled (see compiled()); resolves once it prints `ready <port>`. */
export async function startChild(
  args: string[],
  script = 'bench/support/serve-child.ts',
  nodeArgs: string[] = [],
): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const run = FROM_SOURCE ? ['--import', 'tsx', script] : [await compiled(script)];
  const child = spawn(process.execPath, [...nodeArgs, ...run, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const m = /^ready (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs a script in a child process and returns the JSON it prints last on stdout. */
export async function runJsonChild(script: string, args: string[]): Promise<any> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!);
}
