// Where a webhook may be sent. Payloads carry reviewers' e-mail addresses and the service sits inside someone's
// network, so a subscription must not be able to reach the service's own host, the private network, or a cloud
// metadata endpoint. The rule is applied to every address a host resolves to, at subscribe time and again at every
// delivery (DNS can change in between); the delivery then connects to the very address that was checked.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseV4, parseV6 } from '../ip.js';

// Part of this module's tested surface since before the parsers moved to ip.ts.
export { parseV6 };

/** Cloud metadata and host-agent addresses outside the private ranges below (those inside are covered anyway). */
const METADATA_V4 = ['168.63.129.16', '192.0.0.192'];

/** [first address, prefix length] of every IPv4 range a webhook must not reach. */
const FORBIDDEN_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (and Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** IPv6 ranges refused as they are; `::`, `::1` and forms that embed an IPv4 address are judged by that address. */
const FORBIDDEN_V6: [string, number][] = [
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: tunnels to an IPv4 address we cannot see
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (includes AWS's metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

function inRange(bytes: number[], base: number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((bytes[bit >> 3]! & mask) !== (base[bit >> 3]! & mask)) return false;
  }
  return true;
}

function forbiddenV4(bytes: number[]): boolean {
  if (METADATA_V4.includes(bytes.join('.'))) return true;
  return FORBIDDEN_V4.some(([base, prefix]) => inRange(bytes, parseV4(base)!, prefix));
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The IPv4 address an IPv6 address stands for (mapped, translated, compatible, NAT64, 6to4), if any. */
function embeddedV4(bytes: number[]): number[] | undefined {
  const zeros = (n: number) => new Array<number>(n).fill(0);
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return bytes.slice(12); // ::ffff:a.b.c.d (IPv4-mapped)
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return bytes.slice(12); // ::ffff:0:a.b.c.d (IPv4-translated, SIIT)
  // ::a.b.c.d (IPv4-compatible, deprecated but still routed by some stacks); :: and ::1 land in 0.0.0.0/8.
  if (startsWith(bytes, zeros(12))) return bytes.slice(12);
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return bytes.slice(12); // 64:ff9b::/96 (NAT64)
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) return bytes.slice(12); // 64:ff9b:1::/48 (local NAT64)
  if (startsWith(bytes, [0x20, 0x02])) return bytes.slice(2, 6); // 2002::/16 (6to4)
  return undefined;
}

/**
 * True when a webhook must not connect to this address: loopback, private, link-local, carrier-grade NAT,
 * metadata, multicast, reserved and documentation ranges, and IPv6 forms that embed such an IPv4 address.
 * Anything that is not an IP address is refused too.
 */
export function isForbiddenAddress(ip: string): boolean {
  const v4 = parseV4(ip);
  if (v4) return forbiddenV4(v4);
  const v6 = parseV6(ip);
  if (!v6) return true;
  const inner = embeddedV4(v6);
  if (inner) return forbiddenV4(inner);
  return FORBIDDEN_V6.some(([base, prefix]) => inRange(v6, parseV6(base)!, prefix));
}

/** A URL a webhook may not be sent to; the message is shown to the subscriber. */
export class RefusedTarget extends Error {}

export interface Target {
  address: string;
  family: 4 | 6;
}

/** The host part of a URL as DNS knows it (IPv6 without brackets, lower case). */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** The name a host is judged by: `localhost.` is `localhost` written as an absolute name, the same host. */
const nameOf = (host: string): string => host.replace(/\.+$/, '');

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Checks a webhook URL and resolves its host: https (unless the host is allowed), and no resolved address may be
 * forbidden (unless the host is allowed). Returns the address to connect to; throws RefusedTarget, or the DNS error.
 */
export async function resolveTarget(
  url: URL,
  allowedHosts: readonly string[],
  resolve: Resolver = systemResolver,
  /**
   * `plainHttp`: http is accepted for any host (the address rules still apply). Fetching a public photo over http
   * leaks nothing of ours (imports/photo-fetch.ts); a webhook body must not travel in the clear.
   */
  options: { plainHttp?: boolean } = {},
): Promise<Target> {
  const host = hostOf(url);
  const name = nameOf(host);
  const allowed = allowedHosts.some((allowedHost) => nameOf(allowedHost) === name);
  if (url.protocol !== 'https:' && !((allowed || options.plainHttp) && url.protocol === 'http:')) {
    throw new RefusedTarget('must be an https:// URL');
  }
  const literal = isIP(host);
  if (!allowed && !literal && (name === 'localhost' || name.endsWith('.localhost'))) {
    throw new RefusedTarget(`${name} is a loopback name, which webhooks may not reach`);
  }
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!allowed) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) {
      const what = literal ? host : `${host} resolves to ${bad.address}, which`;
      throw new RefusedTarget(
        `${what} is a loopback, private, link-local or metadata address, which webhooks may not reach`,
      );
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * The subscribe-time check: a refusal message for a URL webhooks may not reach, or undefined. A host that does not
 * resolve (yet) is accepted: every delivery checks again.
 */
export async function refusalOf(
  url: string,
  allowedHosts: readonly string[],
  resolve: Resolver = systemResolver,
): Promise<string | undefined> {
  const slowDns = new Promise<[]>((ok) => setTimeout(() => ok([]), 5000).unref());
  try {
    await resolveTarget(new URL(url), allowedHosts, (host) => Promise.race([resolve(host), slowDns]));
    return undefined;
  } catch (err) {
    return err instanceof RefusedTarget ? err.message : undefined;
  }
}
