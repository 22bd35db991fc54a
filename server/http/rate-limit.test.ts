import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.js';

describe('RateLimiter', () => {
  it('allows perMinute hits per key in a window and then answers the seconds until it ends', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(2, () => now);
    expect(limiter.hit('a')).toBe(0);
    now += 20_000;
    expect(limiter.hit('a')).toBe(0);
    expect(limiter.hit('a')).toBe(40);
    expect(limiter.hit('b')).toBe(0);
    now += 40_000;
    expect(limiter.hit('a')).toBe(0);
  });

  it('keeps a limited key limited while many other keys come and go (evicts least recently used keys only)', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(3, () => now, 100);
    for (let i = 0; i < 4; i++) limiter.hit('attacker');
    expect(limiter.hit('attacker')).toBeGreaterThan(0);
    for (let i = 0; i < 1000; i++) {
      now += 1;
      limiter.hit(`other-${i}`);
      if (i % 50 === 0) expect(limiter.hit('attacker'), `after ${i} other keys`).toBeGreaterThan(0);
    }
    expect(limiter.hit('attacker')).toBeGreaterThan(0);
    expect(limiter.size).toBeLessThanOrEqual(100);
  });

  it('forgets the least recently used key first when it is full', () => {
    const limiter = new RateLimiter(1, () => 0, 2);
    limiter.hit('old');
    limiter.hit('recent');
    limiter.hit('old'); // touched again: now the most recently used, and over its limit
    limiter.hit('new'); // evicts 'recent'
    expect(limiter.hit('old')).toBeGreaterThan(0);
    expect(limiter.hit('recent')).toBe(0);
  });

  it('allows everything and keeps nothing when the limit is 0 (off)', () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 10; i++) expect(limiter.hit('a')).toBe(0);
    expect(limiter.size).toBe(0);
  });
});
