import { runCli } from './cli/run.ts';
import { tracingSettings } from './config/tracing-settings.ts';
import { systemClock } from './domain/clock.ts';

// A reader that stops early (`svc admin list-keys | head -1`) closes the pipe. The command still
// finishes what it does (an audit row, a commit) and exits as usual; what it prints goes nowhere.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
}

// The one place that reads process.env and argv. Tracing, when an OTLP endpoint is set, starts
// before the command and ends after it, exporting what it still holds (docs/operations.md, "Traces").
const tracing = tracingSettings(process.env);
const runtime = tracing.enabled ? await (await import('./telemetry/start-tracing.ts')).startTracing(tracing) : undefined;
const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  clock: systemClock,
  tracing: runtime,
});
await runtime?.shutdown();
process.exitCode = code;
