/** Connection-level errors of a Postgres store that went away or never answered. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * Whether an error (or one in its `cause` chain) came from the store: a SQLite result code, a
 * Postgres server error (it carries `severity`), a lost connection or a pool/statement timeout.
 * Monitoring counts these apart from the service's own bugs.
 */
export function isStoreFailure(err: unknown): boolean {
  for (
    let current = err, depth = 0;
    current && typeof current === 'object' && depth < 5;
    current = (current as { cause?: unknown }).cause, depth++
  ) {
    const { code, severity, message } = current as { code?: unknown; severity?: unknown; message?: unknown };
    if (typeof code === 'string' && (code.startsWith('SQLITE_') || CONNECTION_CODES.has(code))) return true;
    if (typeof severity === 'string') return true;
    if (typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated|statement timeout/i.test(message))
      return true;
  }
  return false;
}
