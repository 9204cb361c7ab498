/**
 * Errors that mean the store went away (a connection refused, reset or timed out, the server shut
 * down, SQLite's file unreadable), as opposed to a bug or a constraint. Drivers name them by code:
 * Node's socket errors, Postgres SQLSTATE classes 08 (connection) and 57P (operator intervention),
 * SQLite's I/O and open errors; pg-pool by message only.
 */
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SQLITE_CODES = new Set(['SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_FULL']);
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection ended unexpectedly/i,
  /did not answer within \d+ ms/,
];

export function isStoreConnectionError(err: unknown): boolean {
  for (let current: unknown = err, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      // 08P01, a protocol violation, is a statement the client sent wrong (more than 65,535
      // parameters wrap pg's 16-bit count), not a store that went away: it stays a bug (exit 70).
      const connection = /^08/.test(code) && code !== '08P01';
      if (NODE_CODES.has(code) || SQLITE_CODES.has(code) || connection || /^57P0[1-3]$/.test(code)) return true;
    }
    if (MESSAGES.some((m) => m.test(current instanceof Error ? current.message : ''))) return true;
    if (current instanceof AggregateError && current.errors.some((x) => isStoreConnectionError(x))) return true;
  }
  return false;
}
