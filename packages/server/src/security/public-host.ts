// Whether a host is on the public internet. A reseller's mail server (its test mail, the settings it
// saves, real sends) must not reach this server's own network — loopback, private, link-local, CGNAT,
// multicast, reserved — or the test mail becomes a port scanner of that network (issue 11, finding 5).
// A name is resolved once, every address it has is checked, and the caller connects to the address
// returned here (pinned, with the name kept for TLS), so a DNS answer that changes between the check
// and the connection (rebinding) cannot move the connection elsewhere.
import dns from 'node:dns/promises';
import net from 'node:net';
import { businessError } from '../http/errors';

const LOOKUP_TIMEOUT_MS = 5_000;

/** Ranges that are never a public unicast address (IANA special-purpose registries). */
const BLOCKED = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) BLOCKED.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 96], // unspecified, loopback, deprecated IPv4-compatible
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (hides an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (hides an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) BLOCKED.addSubnet(address, prefix, 'ipv6');

/** The eight 16-bit words of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Words(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) address stands for. */
function embeddedIpv4(address: string): string | undefined {
  const w = ipv6Words(address);
  const mapped = w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff;
  const nat64 = w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return undefined;
  return [w[6]! >> 8, w[6]! & 255, w[7]! >> 8, w[7]! & 255].join('.');
}

/** Addresses and CIDRs (`10.0.0.5`, `10.1.0.0/16`, `fd00::/8`) let through although not public. */
export function allowList(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** true for a public unicast IP address (or one `allow` lets through); false for anything else. */
export function isPublicAddress(address: string, allow?: net.BlockList): boolean {
  const bare = address.replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0) names an interface of this host
  const family = net.isIP(bare);
  if (!family) return false;
  if (allow?.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return true;
  if (family === 4) return !BLOCKED.check(bare, 'ipv4');
  const v4 = embeddedIpv4(bare);
  if (v4) return isPublicAddress(v4, allow);
  return !BLOCKED.check(bare, 'ipv6');
}

export interface PublicAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The address to connect to for `host` (a name or an IP literal), once every address it resolves to is
 * public. Throws an AppError: `host.unresolved` when it has no address, `host.not_public` when any
 * address is loopback, private, link-local, unspecified, multicast or reserved (and not in `allow`).
 * Connect to `address` and keep `host` as the TLS server name (nodemailer: `host: address, servername: host`).
 */
export async function resolvePublicHost(host: string, allow: readonly string[] = []): Promise<PublicAddress> {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  let found: { address: string; family: number }[] = [];
  if (net.isIP(name)) found = [{ address: name, family: net.isIP(name) }];
  else if (name) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
    });
    found = await Promise.race([dns.lookup(name, { all: true, verbatim: true }), timeout])
      .catch(() => [])
      .finally(() => clearTimeout(timer));
  }
  if (!found.length) throw businessError('host.unresolved', { host });
  const allowed = allowList(allow);
  if (found.some((a) => !isPublicAddress(a.address, allowed))) throw businessError('host.not_public', { host });
  return { address: found[0]!.address, family: found[0]!.family === 6 ? 6 : 4 };
}
