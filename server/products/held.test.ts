// The product index changed in place: the same products as building it whole from the same reviews, after each
// change; untouched products keep their objects.
import { describe, expect, it } from 'vitest';
import { HeldProducts, type ReviewEntry } from './held.js';
import { buildProducts, type ProductInfo, type ProductReview } from './rules.js';

const info = (over: Partial<ProductInfo>): ProductInfo => ({
  external_id: '',
  sku: '',
  gtin: '',
  name: '',
  url: '',
  image: '',
  mpn: '',
  brand: '',
  ...over,
});

const entry = (key: string, product: Partial<ProductInfo>, rating: number, day: number): ReviewEntry => ({
  info: info(product),
  review: {
    key,
    reviewId: key.startsWith('i:') ? null : Number(key),
    name: key,
    rating,
    title: '',
    text: '',
    date: new Date(Date.UTC(2026, 0, day)),
    experience_date: '2026-01',
    origin: key.startsWith('i:') ? 'imported' : 'verified_order',
    incentivised: false,
    imported_from: null,
    reply: null,
    photos: [],
  } satisfies ProductReview,
});

/** What the surfaces see, comparable with a whole build. */
const shape = (products: readonly { key: string; info: ProductInfo; reviews: ProductReview[] }[]) =>
  [...products]
    .map((p) => ({ key: p.key, info: p.info, reviews: p.reviews.map((r) => `${r.key}:${r.rating}`) }))
    .sort((a, b) => a.key.localeCompare(b.key));

describe('HeldProducts', () => {
  it('matches a whole build after a review is changed, removed, added, and the imported ones replaced', () => {
    let current = new Map<string, ReviewEntry[]>([
      ['1', [entry('1', { external_id: 'A', sku: 'SA', name: 'Old name' }, 5, 1)]],
      ['2', [entry('2', { external_id: 'A', name: 'New name', url: 'https://x.example/a' }, 3, 5)]],
      ['3', [entry('3', { sku: 'SB', name: 'B' }, 4, 2), entry('3', { external_id: 'A' }, 2, 2)]],
      ['i:1', [entry('i:1', { external_id: 'C', name: 'C' }, 1, 3)]],
    ]);
    const held = new HeldProducts([...current.values()].flat());
    const check = () => expect(shape(held.all)).toEqual(shape(buildProducts([...current.values()].flat())));
    check();
    const untouched = held.find('C');

    // Changed: review 2 now rates A 1 and names it differently.
    const changed = [entry('2', { external_id: 'A', name: 'Newest', url: 'https://x.example/a' }, 1, 5)];
    current.set('2', changed);
    held.replace('2', changed);
    check();
    expect(held.find('SA')?.info.name).toBe('Newest');
    expect(held.find('C')).toBe(untouched);

    // Removed (unpublished): its entries go; B had only it, so B goes too.
    current.delete('3');
    held.replace('3', []);
    check();
    expect(held.find('SB')).toBeUndefined();

    // Added: a new product, found by its GTIN.
    const added = [entry('4', { gtin: '4006381333931', name: 'D' }, 4, 9)];
    current.set('4', added);
    held.replace('4', added);
    check();
    expect(held.find('4006381333931')?.reviews.map((r) => r.key)).toEqual(['4']);

    // The imported ones replaced at once (an import's decision).
    current = new Map([...current].filter(([k]) => !k.startsWith('i:')));
    const imported = [entry('i:2', { external_id: 'A' }, 5, 7)];
    current.set('i:2', imported);
    held.replaceImported(imported);
    check();
    expect(held.find('C')).toBeUndefined();
    expect(held.find('A')?.reviews.map((r) => r.key)).toEqual(['i:2', '2', '1']);
    expect(held.entryCount).toBe(4);
  });

  it('ignores a product without any id, as a whole build does', () => {
    const held = new HeldProducts([entry('1', { name: 'Nameless' }, 5, 1)]);
    expect(held.all).toEqual([]);
    held.replace('1', [entry('1', { external_id: 'Z' }, 5, 1)]);
    expect(held.find('Z')?.reviews).toHaveLength(1);
    expect(held.entryCount).toBe(1);
  });
});
