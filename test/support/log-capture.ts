import { pino, type Logger } from 'pino';

/** A pino logger at info level whose lines are kept, parsed, in `lines`. */
export function capturingLogger(): { logger: Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}
