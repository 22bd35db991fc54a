import { describe, expect, it } from 'vitest';
import {
  announcement,
  fragmentUrl,
  isJsonLd,
  jsonLdProduct,
  jsonLdUrl,
  productOf,
  votesOf,
  withVote,
} from './rules.js';

const block = { base: 'https://reviews.example', shopId: 42, product: 'SKU 1/a', lang: 'de', theme: 'light' } as const;

describe('the product block rules', () => {
  it("takes the element's own product over the page's, trimmed; numbers count, anything else does not", () => {
    expect(productOf(' A-1 ', 'B')).toBe('A-1');
    expect(productOf(undefined, ' 8712345678906 ')).toBe('8712345678906');
    expect(productOf('', 1234)).toBe('1234');
    expect(productOf('  ', { id: 1 })).toBe('');
    expect(productOf(undefined, undefined)).toBe('');
    expect(productOf('x'.repeat(201), 'B')).toBe('');
  });

  it('asks for the fragment of the product, language and theme; navigation adds to it and cannot change them', () => {
    expect(fragmentUrl(block)).toBe(
      'https://reviews.example/webshops/42/products/reviews.html?product=SKU+1%2Fa&lang=de&theme=light',
    );
    expect(fragmentUrl(block, 'page=2&sort=newest&stars=1,2&product=OTHER&theme=dark')).toBe(
      'https://reviews.example/webshops/42/products/reviews.html?product=SKU+1%2Fa&lang=de&theme=light&page=2&sort=newest&stars=1%2C2',
    );
    expect(fragmentUrl(block, 'stars=1&stars=2&sort=lowest')).toMatch(/&stars=1&stars=2&sort=lowest$/);
    expect(fragmentUrl(block, '')).toBe(fragmentUrl(block));
    expect(jsonLdUrl(block)).toBe('https://reviews.example/webshops/42/products/jsonld?product=SKU+1%2Fa');
  });

  it('gives JSON-LD to a page about one product only, unless a block of it opts out', () => {
    expect(jsonLdProduct([{ product: 'A', jsonld: undefined }])).toBe('A');
    expect(
      jsonLdProduct([
        { product: 'A', jsonld: undefined },
        { product: 'A', jsonld: '' },
        { product: '', jsonld: undefined },
      ]),
    ).toBe('A');
    expect(
      jsonLdProduct([
        { product: 'A', jsonld: undefined },
        { product: 'B', jsonld: undefined },
      ]),
    ).toBeUndefined();
    expect(jsonLdProduct([{ product: 'A', jsonld: 'false' }])).toBeUndefined();
    expect(jsonLdProduct([])).toBeUndefined();
  });

  it('adds only a JSON object or array', () => {
    expect(isJsonLd('{"@type":"Product","name":"\\u003c/script\\u003e"}')).toBe(true);
    expect(isJsonLd('[]')).toBe(true);
    for (const bad of ['', 'null', '"x"', '1', '<html>', '{']) expect(isJsonLd(bad), bad).toBe(false);
  });

  it('announces the heading and the page in the language of the block', () => {
    expect(announcement('en', [' Reviews of Commuter 8 ', ''], '2', '5')).toBe('Reviews of Commuter 8. Page 2 of 5');
    expect(announcement('en', ['Reviews of Commuter 8', '2 reviews match.'], '1', '1')).toBe(
      'Reviews of Commuter 8. 2 reviews match. Page 1 of 1',
    );
    expect(announcement('hr', ['Recenzije'], '1', '3')).toBe('Recenzije. Stranica 1 od 3');
    expect(announcement('nl', ['Beoordelingen'], undefined, undefined)).toBe('Beoordelingen');
  });

  it('remembers the votes of this browser in one short list, ignoring what it cannot read', () => {
    expect(votesOf(null)).toEqual([]);
    expect(votesOf('3,x,-1,4,,1.5')).toEqual([3, 4]);
    expect(withVote(null, 7)).toBe('7');
    expect(withVote('7,8', 7)).toBe('8,7');
    const many = Array.from({ length: 200 }, (_, i) => i + 1).join(',');
    expect(votesOf(withVote(many, 999))).toHaveLength(200);
    expect(votesOf(withVote(many, 999))[0]).toBe(2);
  });
});
