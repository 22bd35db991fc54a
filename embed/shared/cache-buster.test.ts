import { describe, expect, it } from 'vitest';
import { cacheBuster } from './cache-buster.js';

describe('cache-buster', () => {
  it('is floor((now_ms + sin(id) * 600000) / 600000)', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    expect(cacheBuster(1234, now)).toBe(Math.floor((now + Math.sin(1234) * 600000) / 600000));
    // Worked by hand: sin(1) ≈ 0.841 shifts shop 1 by 0.841 of a window; sin(5) ≈ -0.959 shifts shop 5 back.
    expect(cacheBuster(1, 0)).toBe(0);
    expect(cacheBuster(1, 90_000)).toBe(0); // 0.15 + 0.841 < 1
    expect(cacheBuster(1, 100_000)).toBe(1); // 0.167 + 0.841 ≥ 1
    expect(cacheBuster(5, 0)).toBe(-1);
    expect(cacheBuster(5, 30_000)).toBe(-1); // 0.05 - 0.959 < 0
    expect(cacheBuster(5, 600_000)).toBe(0); // 1 - 0.959 ≥ 0
    expect(cacheBuster(1234, now + 600_000)).toBe(cacheBuster(1234, now) + 1);
  });

  it('changes once per ten minutes, at a moment that depends on the shop', () => {
    const start = Date.UTC(2025, 0, 1);
    const values = new Set<number>();
    for (let t = start; t < start + 600_000; t += 10_000) values.add(cacheBuster(7, t));
    expect(values.size).toBe(2);
    const changeAt = (id: number) => {
      let t = start;
      while (cacheBuster(id, t) === cacheBuster(id, start)) t += 1000;
      return t;
    };
    expect(changeAt(1)).not.toBe(changeAt(2));
  });
});
