import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./lock-holder.ts', import.meta.url));

/** A child process holding the SQLite write lock of `file` for `ms`; resolves once it holds it. */
export async function holdWriteLockElsewhere(file: string, ms: number): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, file, String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => line === 'locked' && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before taking the lock`)));
  });
  return { child, exited };
}
