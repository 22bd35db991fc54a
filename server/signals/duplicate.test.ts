import { describe, expect, it } from 'vitest';
import { BandTable } from './band-table.js';
import { bands, bandsOf, BANDS, jaccard, minhash, normalise, shingles, similarity, wordsOf } from './duplicate.js';

/** `n` distinct words: every 3-shingle of them is distinct too. */
const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const text = (list: string[]) => list.join(' ');

describe('normalise and wordsOf', () => {
  it('folds case, punctuation, symbols and white space; keeps accents', () => {
    expect(normalise('  Très BIEN!!  Fast —   delivery, 10/10 :-)\n')).toBe('très bien fast delivery 10 10');
    expect(normalise('ｆｕｌｌ　width')).toBe('full width');
  });

  it('needs 12 words: "Great service, fast delivery" and 11 words are too short', () => {
    expect(wordsOf('Great service, fast delivery')).toBeNull();
    expect(wordsOf(text(words(11)))).toBeNull();
    expect(wordsOf(text(words(12)))).toHaveLength(12);
    expect(wordsOf(null)).toBeNull();
    expect(wordsOf('!!! ... ???')).toBeNull();
  });
});

describe('shingles and jaccard', () => {
  it('takes word 3-shingles and their exact Jaccard', () => {
    expect([...shingles(['a', 'b', 'c', 'd'])]).toEqual(['a b c', 'b c d']);
    const base = words(42); // 40 shingles
    // 40 common of 50: exactly 0.8; 40 of 51: just below.
    expect(similarity(text(base), text([...base, ...words(10, 'x')]))).toBe(0.8);
    expect(similarity(text(base), text([...base, ...words(11, 'x')]))).toBeCloseTo(40 / 51);
    expect(similarity(text(base), text(base).toUpperCase().replace(/ /g, ', '))).toBe(1);
    expect(similarity(text(words(11)), text(words(11)))).toBe(0);
    expect(jaccard(new Set(), new Set())).toBe(1);
  });
});

describe('minhash and bands', () => {
  it('gives equal texts equal bands, and close texts shared bands, unrelated texts none', () => {
    const base = words(60);
    const a = bandsOf(text(base))!;
    expect(a).toHaveLength(BANDS);
    expect([...a].every((k) => k !== 0)).toBe(true);
    expect(bandsOf(`${text(base).toUpperCase()}!`)).toEqual(a);
    const close = bands(minhash(shingles([...base, 'one', 'more', 'word'])));
    expect([...close].filter((k, i) => k === a[i]).length).toBeGreaterThan(0);
    const other = bandsOf(text(words(60, 'z')))!;
    expect([...other].filter((k, i) => k === a[i])).toEqual([]);
  });

  it('estimates the Jaccard: the share of equal signature values is near the exact figure', () => {
    const base = words(200);
    const near = [...base.slice(0, 180), ...words(20, 'q')];
    const sa = minhash(shingles(base));
    const sb = minhash(shingles(near));
    const estimate = sa.filter((v, i) => v === sb[i]).length / sa.length;
    const exact = jaccard(shingles(base), shingles(near));
    expect(Math.abs(estimate - exact)).toBeLessThan(0.2);
  });
});

describe('BandTable', () => {
  it('holds several ids per key, removes one copy at a time, and grows', () => {
    const table = new BandTable(16);
    const ids = (key: number) => {
      const out: number[] = [];
      table.each(key, (id) => out.push(id));
      return out.sort((a, b) => a - b);
    };
    for (let i = 1; i <= 1000; i++) table.add((i % 37) + 1, i);
    expect(table.size).toBe(1000);
    expect(ids(5)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1).filter((i) => (i % 37) + 1 === 5));
    for (let i = 1; i <= 1000; i += 2) table.remove((i % 37) + 1, i);
    expect(table.size).toBe(500);
    for (let key = 1; key <= 37; key++) {
      expect(ids(key)).toEqual(
        Array.from({ length: 1000 }, (_, i) => i + 1).filter((i) => (i % 37) + 1 === key && i % 2 === 0),
      );
    }
    table.remove(999_999, 1);
    expect(table.size).toBe(500);
  });

  it('finds every pair after removals in colliding runs (keys that share home slots)', () => {
    const table = new BandTable(16);
    const live = new Map<string, [number, number]>();
    let seed = 7;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (let step = 0; step < 5000; step++) {
      const key = (rnd() % 64) * 1024 + 1; // many keys with the same low bits
      const id = rnd() % 50;
      const name = `${key}:${id}`;
      if (live.has(name)) {
        table.remove(key, id);
        live.delete(name);
      } else {
        table.add(key, id);
        live.set(name, [key, id]);
      }
    }
    expect(table.size).toBe(live.size);
    for (const [key, id] of live.values()) {
      let found = false;
      table.each(key, (other) => {
        if (other === id) found = true;
      });
      expect(found).toBe(true);
    }
  });
});
