import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, parseV6, RefusedTarget, resolveTarget, type Resolver } from './ssrf.js';

describe('isForbiddenAddress', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['100.100.100.200', 'Alibaba metadata (CGNAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'ECS task metadata (link-local)'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.0.0.8', 'IETF assignments'],
    ['192.0.0.192', 'Oracle metadata'],
    ['192.0.2.10', 'documentation'],
    ['192.168.1.1', 'private 192.168/16'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.7', 'documentation'],
    ['168.63.129.16', 'Azure host agent'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'IPv6 loopback'],
    ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long form'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:100.64.0.1', 'IPv4-mapped CGNAT'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped 192.168.1.1, long form'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::ffff:0:127.0.0.1', 'SIIT (IPv4-translated) loopback'],
    ['::ffff:0:7f00:1', 'SIIT loopback, hex'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'SIIT metadata, long form'],
    ['::ffff:0:10.0.0.1', 'SIIT private'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:0a00:0001::1', '6to4 of 10.0.0.1'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with zone'],
    ['febf::1', 'link-local, end of range'],
    ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['100::1', 'discard'],
  ])('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    ['93.184.215.14'],
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['100.63.255.255'], // just below CGNAT
    ['100.128.0.0'], // just above CGNAT
    ['172.15.255.255'], // just below 172.16/12
    ['172.32.0.0'], // just above
    ['192.169.0.1'],
    ['169.255.0.1'],
    ['223.255.255.255'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:82a::200e'],
    ['::ffff:8.8.8.8'],
    ['::ffff:0:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:0808:0808::1'],
  ])('allows the public address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it.each([
    ['localhost'],
    [''],
    ['1.2.3'],
    ['256.1.1.1'],
    ['1.2.3.4.5'],
    ['::ffff:1.2.3.999'],
    ['1:2:3:4:5:6:7:8:9'],
    ['1::2::3'],
    ['g::1'],
  ])('refuses %j, which is not an IP address', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it('parses IPv6 forms to the same bytes', () => {
    expect(parseV6('::ffff:127.0.0.1')).toEqual(parseV6('0:0:0:0:0:ffff:7f00:0001'));
    expect(parseV6('1:2:3:4:5:6:7:8')).toHaveLength(16);
    expect(parseV6('1:2:3:4:5:6:7::8')).toBeUndefined();
  });
});

describe('resolveTarget', () => {
  const resolver =
    (table: Record<string, string[]>): Resolver =>
    async (host) =>
      (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const dns = resolver({
    'public.example': ['93.184.215.14'],
    'mixed.example': ['93.184.215.14', '10.0.0.5'],
    'rebind.example': ['127.0.0.1'],
    // DNS is asked for the name as written.
    'rebind.example.': ['127.0.0.1'],
    'v6.example': ['2606:4700::1'],
  });
  const refusal = (url: string, allowed: string[] = []) =>
    resolveTarget(new URL(url), allowed, dns).then(
      () => undefined,
      (err: unknown) => (err instanceof RefusedTarget ? err.message : `not refused: ${String(err)}`),
    );

  it('returns the checked address to connect to', async () => {
    expect(await resolveTarget(new URL('https://public.example/hook'), [], dns)).toEqual({
      address: '93.184.215.14',
      family: 4,
    });
    expect(await resolveTarget(new URL('https://v6.example/hook'), [], dns)).toEqual({
      address: '2606:4700::1',
      family: 6,
    });
    expect(await resolveTarget(new URL('https://8.8.8.8/hook'), [], dns)).toEqual({ address: '8.8.8.8', family: 4 });
  });

  it.each([
    ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback/],
    ['https://10.0.0.1/hook', /10\.0\.0\.1 is a/],
    ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is a/],
    ['https://[::1]/hook', /::1 is a/],
    ['https://[::ffff:127.0.0.1]/hook', /is a loopback/],
    ['https://2130706433/hook', /127\.0\.0\.1 is a/], // the URL parser turns decimal hosts into dotted ones
    ['https://0x7f.1/hook', /127\.0\.0\.1 is a/],
    ['https://localhost/hook', /localhost is a loopback name/],
    ['https://api.localhost/hook', /loopback name/],
    // A trailing dot names the same host (an absolute name): the name check must not be dodged by it.
    ['https://localhost./hook', /localhost is a loopback name/],
    ['https://LOCALHOST./hook', /localhost is a loopback name/],
    ['https://foo.localhost./hook', /foo\.localhost is a loopback name/],
    ['https://localhost../hook', /loopback name/],
    ['https://rebind.example/hook', /rebind\.example resolves to 127\.0\.0\.1/],
    ['https://mixed.example/hook', /resolves to 10\.0\.0\.5/],
    ['http://public.example/hook', /must be an https/],
    ['ftp://public.example/hook', /must be an https/],
  ])('refuses %s', async (url, message) => {
    expect(await refusal(url)).toMatch(message);
  });

  it('lets allowed hosts use http and private addresses, and only those hosts', async () => {
    expect(await resolveTarget(new URL('http://127.0.0.1:8080/hook'), ['127.0.0.1'], dns)).toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    expect(await resolveTarget(new URL('http://rebind.example/hook'), ['rebind.example'], dns)).toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    expect(await resolveTarget(new URL('http://[::1]/hook'), ['::1'], dns)).toEqual({ address: '::1', family: 6 });
    expect(await refusal('https://localhost/hook', ['127.0.0.1'])).toMatch(/loopback name/);
    // An allowed name is the same host with its trailing dot.
    expect(await resolveTarget(new URL('http://rebind.example./hook'), ['rebind.example'], dns)).toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    expect(await refusal('https://10.0.0.1/hook', ['127.0.0.1'])).toMatch(/10\.0\.0\.1 is a/);
  });
});
