import { isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { nonPublicReason } from '../../domain/address-policy.ts';
import type { DestinationPolicy, Resolver } from './destination.ts';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves with `resolve` and checks every address it gets:
 * unless the operator allows non-public destinations, one non-public address refuses the
 * connection. The socket then connects to an address this function checked, so a name that
 * resolved to a public address for the destination check cannot be re-resolved to a private one
 * for the connection (DNS rebinding).
 */
export function checkedLookup(policy: DestinationPolicy, resolve: Resolver): LookupFunction {
  const lookup = (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    resolve(hostname)
      .then((found) => {
        const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const addresses = found
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (wanted === 0 || a.family === wanted));
        if (addresses.length === 0) throw Object.assign(new Error(`url host ${hostname} resolves to no address`), { code: 'ENOTFOUND' });
        if (!policy.allowInsecure) {
          for (const { address } of addresses) {
            const reason = nonPublicReason(address);
            if (reason) {
              throw Object.assign(new Error(`destination refused: url host ${hostname} resolves to ${address}, a ${reason} address`), {
                code: 'EREFUSED',
              });
            }
          }
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, []));
  };
  return lookup;
}

/**
 * The fetch webhook deliveries use: undici's own fetch (the same undici as the Agent, whatever
 * Node bundles) over one Agent whose every new connection goes through checkedLookup. Reused
 * keep-alive connections stay on the address that was checked when they were opened.
 */
export function pinnedFetch(policy: DestinationPolicy, resolve: Resolver): typeof fetch {
  const dispatcher = new Agent({ connect: { lookup: checkedLookup(policy, resolve) } });
  return ((input: string | URL, init?: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}
