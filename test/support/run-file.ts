import { execFile } from 'node:child_process';

export type Run = { code: number | null; stdout: string; stderr: string };

/**
 * Runs `file` with `args` in `cwd` and resolves with its exit code and output (never rejects),
 * with this process's environment less the variables in `without`, plus `env`.
 */
export function runFile(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  without: readonly string[] = [],
): Promise<Run> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !without.includes(name)));
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...inherited, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
