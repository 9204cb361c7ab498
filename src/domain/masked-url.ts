/**
 * Store and broker URLs as svc prints and logs them: credentials replaced by `***`
 * (docs/operations.md, "Checking the settings"). A URL is read the way its clients read it, the
 * WHATWG URL parser (pg-connection-string and amqplib both use `new URL`), so what they would take
 * as a password is what is hidden, however it is written: `user:pass@`, `?password=`,
 * `?pass%77ord=`, `?sslpassword=`.
 */

/** Query parameters whose value is hidden: pg reads every parameter as a connection setting (password, sslpassword…). */
const SECRET_PARAM = /pass|secret|token/i;

const MASK = '***';

/** `scheme://` at the start: only such URLs have an authority that can carry credentials (`sqlite:PATH` has none). */
const WITH_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The URL with its password and secret query parameters shown as `***`; one that cannot be parsed shows its scheme only. */
export function maskUrl(url: string): string {
  const scheme = WITH_AUTHORITY.exec(url);
  if (!scheme) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${scheme[0]}${MASK}`;
  }
  const rest = url.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]/);
  if (authorityEnd >= 0 && rest.lastIndexOf('@') > authorityEnd) {
    // An `@` past the host, which the parser did not take as the end of credentials: likely a
    // password written with a raw `/`, `?` or `#` (`postgres://u:/pw@host`), or one in the query.
    // Hide everything up to the last `@` (more than needed at worst), or all of it when that `@` is
    // in the query, where what follows it may be the rest of a password.
    const at = rest.lastIndexOf('@');
    return rest.slice(0, at).includes('?') ? `${scheme[0]}${MASK}` : `${scheme[0]}${MASK}${rest.slice(at)}`;
  }
  if (parsed.password !== '') {
    parsed.password = MASK;
    // A URL whose host cannot hold credentials keeps them through the setter: show none of it.
    if (parsed.password !== MASK) return `${scheme[0]}${MASK}`;
  }
  const secrets = [...parsed.searchParams.keys()].filter((name) => SECRET_PARAM.test(name));
  for (const name of new Set(secrets)) parsed.searchParams.set(name, MASK);
  return parsed.toString();
}

/** URL-like words (`scheme://…`) among `values`: a command's arguments and environment, whose URLs may carry credentials. */
export function urlsAmong(values: Iterable<string | undefined>): string[] {
  const urls = new Set<string>();
  for (const value of values) {
    if (value === undefined) continue;
    // `--db=postgres://…` is one argument; the URL starts after the `=`.
    const start = value.search(/[a-z][a-z0-9+.-]*:\/\//i);
    if (start >= 0 && (start === 0 || value[start - 1] === '=')) urls.add(value.slice(start));
  }
  return [...urls];
}

/** `text` with every occurrence of each of `urls` replaced by its masked form: the last guard before a message is printed. */
export function maskUrlsIn(text: string, urls: readonly string[]): string {
  // Longest first, so a URL that contains another is replaced whole.
  return [...urls].sort((a, b) => b.length - a.length).reduce((out, url) => out.replaceAll(url, maskUrl(url)), text);
}
