import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run.ts';

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
