// Property tests of the webhook address check against an independent oracle: Node's BlockList holding the same
// ranges, fed by the WHATWG URL parser's reading of the address. Any string gives a boolean (never an exception),
// anything that is not an IP address is refused, and long strings take linear time.
import { BlockList, isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastestMs, fuzzOptions, repeated, textOf } from '../../test/fuzz.js';
import { isForbiddenAddress } from './ssrf.js';

// The ranges as documented (ssrf.ts, SECURITY.md), restated here so that the oracle shares no code with the check.
const forbidden = new BlockList();
for (const [base, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  forbidden.addSubnet(base, prefix, 'ipv4');
for (const address of ['168.63.129.16', '192.0.0.192']) forbidden.addAddress(address, 'ipv4');
for (const [base, prefix] of [
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  forbidden.addSubnet(base, prefix, 'ipv6');

/** The eight 16-bit words of an IPv6 address, as the URL standard reads it, or undefined. */
function words(ip: string): number[] | undefined {
  let host: string;
  try {
    host = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  // The serialisation is hex words with at most one `::`.
  const [head = '', tail] = host.split('::');
  const part = (text: string) => (text ? text.split(':').map((w) => parseInt(w, 16)) : []);
  const missing = 8 - part(head).length - part(tail ?? '').length;
  return [...part(head), ...new Array<number>(tail === undefined ? 0 : missing).fill(0), ...part(tail ?? '')];
}

/** The IPv4 address an IPv6 address stands for: mapped, translated (SIIT), compatible, NAT64, local NAT64, 6to4. */
function embedded(w: number[]): string | undefined {
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6]!, w[7]!);
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return v4(w[6]!, w[7]!);
  if (zeros(0, 6)) return v4(w[6]!, w[7]!);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return v4(w[6]!, w[7]!);
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return v4(w[6]!, w[7]!);
  if (w[0] === 0x2002) return v4(w[1]!, w[2]!);
  return undefined;
}

function oracle(ip: string): boolean {
  if (isIP(ip) === 4) return forbidden.check(ip, 'ipv4');
  // A zone id names an interface: the address is what comes before it.
  const [address = ''] = ip.split('%');
  const w = isIP(address) === 6 ? words(address) : undefined;
  if (!w) return true;
  const inner = embedded(w);
  if (inner) return forbidden.check(inner, 'ipv4');
  return forbidden.check(w.map((x) => x.toString(16)).join(':'), 'ipv6');
}

// Addresses near the ranges' edges, in every IPv6 form that embeds one.
const edgeV4 = fc
  .tuple(
    fc.constantFrom(0, 10, 100, 127, 168, 169, 172, 192, 198, 203, 224, 239, 240, 255, 8, 1),
    fc.nat(255),
    fc.nat(255),
    fc.nat(255),
  )
  .map((parts) => parts.join('.'));
const v4 = fc.oneof(fc.ipV4(), edgeV4);
const hex = (ip: string) =>
  ip
    .split('.')
    .map(Number)
    .reduce(
      (words, b, i) =>
        i % 2 ? `${words}${b.toString(16).padStart(2, '0')}` : `${words}${i ? ':' : ''}${b.toString(16)}`,
      '',
    );
const v6 = fc.oneof(
  fc.ipV6(),
  v4.map((a) => `::ffff:${a}`),
  v4.map((a) => `::ffff:${hex(a)}`),
  v4.map((a) => `::ffff:0:${a}`),
  v4.map((a) => `::${a}`),
  v4.map((a) => `64:ff9b::${a}`),
  v4.map((a) => `64:ff9b:1::${hex(a)}`),
  v4.map((a) => `2002:${hex(a)}::1`),
  fc.constantFrom(
    '::',
    '::1',
    'fe80::1%eth0',
    'fd00:ec2::254',
    '2001:db8::1',
    'ff02::1',
    '100::1',
    '2001::1',
    'FE80::A',
  ),
);
// Almost-addresses: the characters of addresses in the wrong places, leading zeros, too many parts.
const junk = fc.oneof(
  textOf('0123456789abcdef.:%fFxX', 45),
  fc.string(),
  v4.map((a) => a.replace(/\b(\d)/g, '0$1')),
);

describe('the webhook address check', () => {
  it('agrees with the oracle on IPv4 and IPv6 addresses in all their forms', () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6), (ip) => {
        expect(isForbiddenAddress(ip), ip).toBe(oracle(ip));
      }),
      fuzzOptions(3000),
    );
  });

  it('refuses anything that is not an IP address, and never throws', () => {
    fc.assert(
      fc.property(junk, (ip) => {
        expect(isForbiddenAddress(ip), JSON.stringify(ip)).toBe(oracle(ip));
      }),
      fuzzOptions(3000),
    );
  });

  it('takes linear time on long strings', async () => {
    await fc.assert(
      // A zone id is cut at `%`: a pattern that matched `%…` up to each line end took quadratic time.
      fc.asyncProperty(
        fc.oneof(repeated('0123456789abcdef.:%\n', 64 * 1024), fc.constant(`${'%'.repeat(64 * 1024)}\n`)),
        async (text) => {
          const ms = await fastestMs(() => isForbiddenAddress(text), 200);
          expect(ms, JSON.stringify(text.slice(0, 40))).toBeLessThan(200);
        },
      ),
      fuzzOptions(30),
    );
  });
});
