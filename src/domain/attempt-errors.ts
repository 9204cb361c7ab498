import type { AttemptErrorClass } from './vocabulary.ts';

/** Error texts of src/sync/send-attempt.ts (and Node's network errors) by class, first match wins. */
const CLASSES: ReadonlyArray<[AttemptErrorClass, RegExp]> = [
  ['destination_refused', /^destination refused/],
  ['cancelled', /^cancelled/],
  ['timeout', /^timeout|ETIMEDOUT|UND_ERR_.*TIMEOUT/i],
  ['dns', /ENOTFOUND|EAI_AGAIN|getaddrinfo/],
  ['connection_refused', /ECONNREFUSED/],
  ['connection_reset', /ECONNRESET|EPIPE|socket hang up|other side closed/i],
  ['tls', /certificate|CERT_|SSL|TLS/],
];

/** The class of a stored attempt's error text (`network` when none fits); null when an answer arrived. */
export function attemptErrorClass(error: string | null, statusCode: number | null): AttemptErrorClass | null {
  if (statusCode !== null || error === null) return null;
  return CLASSES.find(([, pattern]) => pattern.test(error))?.[0] ?? 'network';
}
