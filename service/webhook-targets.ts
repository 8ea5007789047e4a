/**
 * Where webhooks may be sent (docs/webhooks.md#where-webhooks-may-be-sent): http and https only; loopback and private LAN
 * addresses are allowed (local tools, a warehouse system on the LAN), while link-local (cloud
 * metadata lives there), multicast, unspecified and other reserved addresses are refused.
 * Registration refuses a URL by these rules; delivery checks every address it connects to by
 * them again (webhooks/target-guard.ts).
 */
import { BlockList, isIP } from 'node:net';

type Range = readonly [network: string, prefix: number, why: string];

const REFUSED_V4: readonly Range[] = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['192.0.0.0', 24, 'reserved for protocol assignments'],
  ['192.0.2.0', 24, 'reserved for documentation'],
  ['198.18.0.0', 15, 'reserved for benchmarking'],
  ['198.51.100.0', 24, 'reserved for documentation'],
  ['203.0.113.0', 24, 'reserved for documentation'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

// IPv6 is judged the other way round: outside the ranges below every address is unspecified,
// link-local, multicast or reserved. IPv4-mapped addresses are judged as the IPv4 they carry.
const ALLOWED_V6: readonly Range[] = [
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique local (private LAN)'],
  ['2000::', 3, 'global unicast'],
];
const REFUSED_V6: readonly Range[] = [
  ['::', 128, 'an unspecified address'],
  ['fe80::', 10, 'a link-local address'],
  ['ff00::', 8, 'a multicast address'],
  ['2001:db8::', 32, 'reserved for documentation'],
];
const NAT64 = blockList([['64:ff9b::', 96, 'NAT64']], 'ipv6');

function blockList(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const refusedV4 = REFUSED_V4.map((range) => ({ list: blockList([range], 'ipv4'), why: range[2] }));
const refusedV6 = REFUSED_V6.map((range) => ({ list: blockList([range], 'ipv6'), why: range[2] }));
const allowedV6 = blockList(ALLOWED_V6, 'ipv6');
const mappedV4 = blockList([['::ffff:0:0', 96, 'IPv4-mapped']], 'ipv6');

/** Why a webhook may not connect to this IP address, or null when it may. */
export function refusedAddress(address: string): string | null {
  const bare = address.replace(/%.*$/, ''); // an IPv6 zone names an interface, not an address
  const family = isIP(bare);
  if (family === 4) return refusedV4.find((r) => r.list.check(bare, 'ipv4'))?.why ?? null;
  if (family !== 6) return 'not an IP address';
  if (mappedV4.check(bare, 'ipv6')) {
    // BlockList judges a mapped address by the IPv4 rules.
    return refusedV4.find((r) => r.list.check(bare, 'ipv6'))?.why ?? null;
  }
  if (NAT64.check(bare, 'ipv6')) return refusedAddress(embeddedIpv4(bare));
  const refused = refusedV6.find((r) => r.list.check(bare, 'ipv6'));
  if (refused) return refused.why;
  return allowedV6.check(bare, 'ipv6') ? null : 'a reserved address';
}

/** The URL's own refusal: a scheme other than http(s), or a host that is a refused IP literal. */
export function refusedUrl(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URLs are not allowed: use http or https`;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host.replace(/%.*$/, '')) === 0) return null;
  const why = refusedAddress(host);
  return why === null ? null : `${host} is ${why}`;
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedIpv4(ipv6: string): string {
  const [head, tail = ''] = ipv6.split('::');
  const groups = (text: string) => (text === '' ? [] : text.split(':'));
  let parts = [...groups(head), ...groups(tail)];
  // A dotted quad at the end stands for the last two groups.
  const last = parts.at(-1) ?? '';
  if (last.includes('.')) return last;
  if (ipv6.includes('::')) parts = [...groups(head), ...Array(8 - parts.length).fill('0'), ...groups(tail)];
  const value = (parseInt(parts[6], 16) << 16) | parseInt(parts[7], 16);
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.');
}
