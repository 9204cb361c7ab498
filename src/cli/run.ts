import { CommanderError } from 'commander';
import { isAppError } from '../domain/app-error.ts';
import type { CliDeps } from './context.ts';
import { buildProgram } from './program.ts';

/** Runs the CLI on argv (without node and script) and resolves to the process exit code. */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  const program = buildProgram(deps);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 64;
    if (isAppError(err)) {
      deps.stderr.write(`svc: ${err.message}\n`);
      return err.exitCode;
    }
    deps.stderr.write(`svc: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    return 70;
  }
}
