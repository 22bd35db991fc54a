import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.js';

describe('clientKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('gives an IPv4-mapped IPv6 address the key of its IPv4 address', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('gives every address of an IPv6 /64 one key, however it is written', () => {
    const key = clientKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientKey('2001:0DB8:0001:0002:0:0:0:abcd')).toBe(key);
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key);
  });

  it('keeps what is not an address as it is (e.g. a proxy header of another form)', () => {
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('')).toBe('');
  });
});
