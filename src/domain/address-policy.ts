import { BlockList, isIP } from 'node:net';

/*
 * Which IP addresses a webhook may be delivered to. Everything that is not globally reachable
 * unicast (IANA special-purpose registries) is refused, so a registered URL cannot be used to
 * reach the service's own host or network.
 */

const V4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_RANGES: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'private'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'tunnelled (Teredo)'],
  ['2001:2::', 48, 'benchmarking'],
  ['2001:10::', 28, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, 'tunnelled (6to4)'],
  ['3fff::', 20, 'documentation'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(ranges: [string, number, string][], type: 'ipv4' | 'ipv6'): [BlockList, string][] {
  return ranges.map(([net, prefix, label]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return [list, label];
  });
}

const V4 = blockList(V4_RANGES, 'ipv4');
const V6 = blockList(V6_RANGES, 'ipv6');
const V6_GLOBAL = new BlockList();
V6_GLOBAL.addSubnet('2000::', 3, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (which isIP already accepted). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

/** The IPv4 address an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address carries. */
function embeddedV4(address: string): string | undefined {
  const groups = v6Groups(address);
  const mapped = groups.slice(0, 5).every((x) => x === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return undefined;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
}

/** Why an address is not public ("loopback", "private"…), or null for a public unicast address. */
export function nonPublicReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return V4.find(([list]) => list.check(bare, 'ipv4'))?.[1] ?? null;
  if (family === 6) {
    const v4 = embeddedV4(bare);
    if (v4 !== undefined) return nonPublicReason(v4);
    const hit = V6.find(([list]) => list.check(bare, 'ipv6'));
    if (hit) return hit[1];
    return V6_GLOBAL.check(bare, 'ipv6') ? null : 'reserved';
  }
  return 'not an IP address';
}

/** A URL host that names the loopback interface itself (where plain http may be allowed). */
export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  return isIP(bare) !== 0 && nonPublicReason(bare) === 'loopback';
}
