import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `npm test` of `files` as a child (TAP output on every Node), with `env` over this process's; its exit code and output. */
export async function runSuite(files: string[], env: Record<string, string | undefined>): Promise<{ code: unknown; out: string }> {
  const run = spawn(process.execPath, ['scripts/run-tests.mjs', '--test-reporter=tap', ...files], {
    cwd: root,
    // Without NODE_TEST_CONTEXT: node:test refuses to start a run from within a test file's process.
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  run.stdout.on('data', (c) => (out += c));
  run.stderr.on('data', (c) => (out += c));
  const code = await new Promise((resolve) => run.on('exit', resolve));
  return { code, out };
}
