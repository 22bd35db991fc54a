import { describe, expect, it } from 'vitest';
import { browserFamily, networkKey, networkOf, sameNetwork } from './network.js';

describe('networkOf', () => {
  it('is the IPv4 /24 and the IPv6 /48', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.200')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(networkOf('2001:DB8:ABCD:ffff:1:2:3:4')).toBe('2001:db8:abcd::/48');
    expect(networkOf('unknown')).toBeNull();
    expect(networkOf('')).toBeNull();
  });
});

describe('browserFamily', () => {
  it('tells Chrome, Firefox, Safari and Edge apart; the rest is other', () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
    expect(browserFamily(chrome)).toBe('chrome');
    expect(browserFamily(`${chrome} Edg/130.0.0.0`)).toBe('edge');
    expect(browserFamily(`${chrome} OPR/115.0.0.0`)).toBe('other');
    expect(browserFamily('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('firefox');
    expect(
      browserFamily(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('safari');
    expect(
      browserFamily(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/130.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('chrome');
    expect(browserFamily('curl/8.5.0')).toBe('other');
    expect(browserFamily(undefined)).toBe('other');
  });
});

describe('networkKey and sameNetwork', () => {
  it('keys a network per shop, and groups the reviews of one network and browser family', () => {
    const key = 'k'.repeat(32);
    const a = networkKey(key, 1, '203.0.113.0/24');
    expect(a).toBe(networkKey(key, 1, '203.0.113.0/24'));
    expect(a).not.toBe(networkKey(key, 2, '203.0.113.0/24'));
    expect(a).not.toBe(networkKey('x'.repeat(32), 1, '203.0.113.0/24'));
    expect(a).not.toContain('203');
    const entries = [
      { review: 5, key: a, family: 'chrome' as const },
      { review: 2, key: a, family: 'chrome' as const },
      { review: 2, key: a, family: 'chrome' as const },
      { review: 3, key: a, family: 'firefox' as const },
      { review: 4, key: 'other', family: 'chrome' as const },
    ];
    expect(sameNetwork(entries, { key: a, family: 'chrome' })).toEqual([2, 5]);
  });
});
