import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run.ts';
import { svcCommand } from './svc-build.ts';

/** bin/svc of this checkout, by absolute path (child processes may run elsewhere). */
export const SVC_BIN = fileURLToPath(new URL('../../bin/svc', import.meta.url));

/** Runs the CLI in-process with captured output, a fixed clock and the given environment. */
export async function cli(argv: string[], env: Record<string, string | undefined> = {}, now = '2026-11-22T10:00:00.000Z') {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks = { out: '', err: '' };
  out.on('data', (c) => (chunks.out += c));
  err.on('data', (c) => (chunks.err += c));
  const saved = process.exitCode;
  process.exitCode = undefined;
  const code = await runCli(argv, { env, stdout: out, stderr: err, clock: () => new Date(now) });
  process.exitCode = saved;
  return { code, stdout: chunks.out, stderr: chunks.err };
}

/**
 * Runs svc as a child process (real argv, exit code and pipes); never rejects on a non-zero exit.
 * What runs is a build of the current sources (test/support/svc-build.ts), never an older one.
 */
export function cliChild(
  argv: string[],
  env: Record<string, string | undefined> = {},
  options: { cwd?: string } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const svc = svcCommand();
    const child = spawn(svc.command, [...svc.args, ...argv], {
      env: { ...process.env, ...svc.env, SVC_LOG_LEVEL: 'silent', ...env },
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
