import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * A server started in its own process, running the TypeScript through tsx as every bench does
 * (docs/development.md, "Ways to build and run"); resolves once it prints `ready <port>`.
 */
export async function startChild(
  args: string[],
  script = 'bench/support/serve-child.ts',
  nodeArgs: string[] = [],
): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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

/** Runs a script in a child process and returns the JSON it prints last on stdout, of the shape `T` the script prints. */
export async function runJsonChild<T>(script: string, args: string[]): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}
