import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isLoopbackHost, nonPublicReason } from '../../domain/address-policy.ts';

/** Resolves a host name to its addresses (injected so tests and callers control DNS). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** What the operator allows: non-public addresses and plain http to loopback, for local testing. */
export interface DestinationPolicy {
  allowInsecure: boolean;
}

/** Appended where the operator's switch would allow the URL, so the refusal says how to test locally. */
const INSECURE_HINT = ' (allowed for local testing with SVC_ALLOW_INSECURE_WEBHOOKS=1)';

/** Why a URL's scheme or literal host is refused, or null (checks that need no DNS). */
export function urlProblem(url: URL, policy: DestinationPolicy): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must use https';
  if (url.username || url.password) return 'url must not contain credentials';
  if (url.protocol === 'http:' && !(policy.allowInsecure && isLoopbackHost(url.hostname))) {
    if (policy.allowInsecure) return 'url must use https (plain http is allowed only to loopback)';
    return isLoopbackHost(url.hostname) ? `url must use https${INSECURE_HINT}` : 'url must use https';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowInsecure && isIP(host) !== 0) {
    const reason = nonPublicReason(host);
    if (reason) return `url points to ${host}, a ${reason} address${INSECURE_HINT}`;
  }
  if (!policy.allowInsecure && isLoopbackHost(host)) return `url points to ${host}, a loopback address${INSECURE_HINT}`;
  return null;
}

/**
 * Why delivering to this URL is refused after resolving its host, or null. Every address the
 * name resolves to must be public unless the operator allows otherwise. DNS failures propagate.
 */
export async function destinationProblem(url: URL, policy: DestinationPolicy, resolve: Resolver): Promise<string | null> {
  const problem = urlProblem(url, policy);
  if (problem || policy.allowInsecure) return problem;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [host] : await resolve(host);
  if (addresses.length === 0) return `url host ${host} resolves to no address`;
  for (const address of addresses) {
    const reason = nonPublicReason(address);
    if (reason) return `url host ${host} resolves to ${address}, a ${reason} address`;
  }
  return null;
}
