import { pino, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';
import type { Config } from '../config/config.ts';
import type { CliDeps } from './context.ts';

/**
 * The server's logger on the command's standard output: readable pino-pretty lines when
 * SVC_LOG_FORMAT is `pretty`, or `auto` (the default) and standard output is a terminal; one JSON
 * object per line otherwise (files, pipes, log collectors).
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, stdout: CliDeps['stdout']): Logger {
  const options = { level: config.logLevel, base: { service: 'svc' } };
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && stdout.isTTY === true);
  if (!pretty) return pino(options, stdout);
  return pino(options, PinoPretty({ destination: stdout, colorize: stdout.isTTY === true, sync: true, ignore: 'pid,hostname' }));
}
