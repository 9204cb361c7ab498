import { CommanderError } from 'commander';
import { isAppError } from '../domain/app-error.ts';
import { maskUrlsIn, urlsAmong } from '../domain/masked-url.ts';
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
    // Whatever a store or broker client put in its error, a URL svc was given is printed masked.
    const mask = (text: string) => maskUrlsIn(text, urlsAmong([...argv, ...Object.values(deps.env)]));
    if (isAppError(err)) {
      deps.stderr.write(`svc: ${mask(err.message)}\n`);
      return err.exitCode;
    }
    deps.stderr.write(`svc: unexpected error: ${mask((err as Error).stack ?? String(err))}\n`);
    return 70;
  }
}
