/** A request's JSON log entry, as the request log writes it (src/http/middleware/request-log.ts). */
export interface RequestEntry {
  msg?: string;
  time?: number;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  reason?: string;
}

const COLOURS = { info: '\x1b[32m', warn: '\x1b[33m', error: '\x1b[31m' } as const;

/**
 * One readable line per request for a person at a terminal: UTC time, a level word that sets 4xx
 * (WARN) and 5xx (ERROR) apart from the rest (INFO), method, path, status, duration, request id;
 * coloured when `colour`. Requests Node refused before the app (no method or path) say why.
 */
export function requestLine(entry: RequestEntry, colour: boolean): string {
  const status = entry.status ?? 0;
  const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
  const time = new Date(entry.time ?? Date.now()).toISOString().slice(11, 23);
  const word = level.toUpperCase().padEnd(5);
  const tag = colour ? `${COLOURS[level]}${word}\x1b[0m` : word;
  const what = entry.method ? `${entry.method} ${entry.path ?? '-'}` : `(refused: ${entry.reason ?? 'bad request'})`;
  const duration = entry.ms === undefined ? '' : ` ${entry.ms} ms`;
  return `${time} ${tag} ${what} ${status}${duration} ${entry.reqId ?? '-'}\n`;
}
