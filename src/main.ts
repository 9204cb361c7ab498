import { runCli } from './cli/run.ts';
import { systemClock } from './domain/clock.ts';

// The one place that reads process.env and argv.
const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  clock: systemClock,
});
process.exitCode = code;
