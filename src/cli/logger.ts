import { pino, type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';
import type { Config } from '../config/config.ts';
import type { Spans } from '../services/plumbing/spans.ts';
import type { CliDeps } from './context.ts';
import { requestLine, type RequestEntry } from './request-line.ts';

/**
 * The server's logger on the command's standard output: readable lines when SVC_LOG_FORMAT is
 * `pretty`, or `auto` (the default) and standard output is a terminal, one JSON object per line
 * otherwise (files, pipes, log collectors). Readable means one line per request (request-line.ts)
 * and pino-pretty for the rest. With tracing on (`spans`), a line logged inside a traced request
 * carries its `traceId`, the id to look the request up by in the tracing backend.
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, stdout: CliDeps['stdout'], spans?: Spans): Logger {
  const options = { level: config.logLevel, base: { service: 'svc' }, ...(spans ? { mixin: traceIdOf(spans) } : {}) };
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && stdout.isTTY === true);
  if (!pretty) return pino(options, stdout);
  const colour = stdout.isTTY === true;
  const others = PinoPretty({ destination: stdout, colorize: colour, sync: true, ignore: 'pid,hostname,service' });
  // pino hands each entry over as one JSON line: request entries get their one-line form here.
  const destination: DestinationStream = {
    write(line: string) {
      const entry = JSON.parse(line) as RequestEntry;
      if (entry.msg === 'request') stdout.write(requestLine(entry, colour));
      else others.write(line);
    },
  };
  return pino(options, destination);
}

/** pino's mixin: the current trace's id, when there is one, on every line. */
function traceIdOf(spans: Spans): () => { traceId?: string } {
  return () => {
    const traceId = spans.traceId();
    return traceId ? { traceId } : {};
  };
}
