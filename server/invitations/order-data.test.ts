// order_data arrives as one JSON string inside the form, up to 4 MB: only its products are parsed, and only the
// first of them.
import { describe, expect, it } from 'vitest';
import { BODY_CAPS } from '../http/body.js';
import { parseOrderData } from './input.js';
import { PRODUCT_ENTRIES } from './order-data.js';

/** The fastest of three runs, in ms: a busy machine slows some runs, never all three by seconds. (Tens of ms on
 * a quiet machine; the bounds below leave room for a busy one.) */
function fastest(work: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

const product = (i: number) => ({ id: `p${i}`, name: `Product ${i}` });

describe('order_data', () => {
  it('gives no products, quickly, for 4 MB of nesting or values (JSON.parse alone took seconds)', () => {
    const half = 2 * 1024 * 1024;
    for (const text of [`${'['.repeat(half)}${']'.repeat(half)}`, `{"products":[${'0,'.repeat(half - 8)}0]}`]) {
      expect(parseOrderData(text)).toEqual([]);
      expect(fastest(() => parseOrderData(text))).toBeLessThan(500);
    }
  });

  it('reads the products of a dense 4 MB order_data, quickly, whatever else it holds (all of it was parsed)', () => {
    const extras = Array.from({ length: 250_000 }, (_, i) => ({ [`k${i}`]: i % 10 }));
    const text = JSON.stringify({ extras, products: [product(1), product(2)], customer: { name: 'x'.repeat(100) } });
    expect(text.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(parseOrderData(text).map((p) => p.external_id)).toEqual(['p1', 'p2']);
    expect(fastest(() => parseOrderData(text))).toBeLessThan(500);
  });

  it(`reads the first ${PRODUCT_ENTRIES} entries of products, up to ${BODY_CAPS.fields} values, nested at most ${BODY_CAPS.depth} levels`, () => {
    // Unusable entries first: only the entries read can give products.
    const list = (unusable: number, usable: number) => [...Array.from({ length: unusable }, () => ({})), ...Array.from({ length: usable }, (_, i) => product(i))];
    expect(parseOrderData(JSON.stringify({ products: list(PRODUCT_ENTRIES - 3, 10) }))).toHaveLength(3);
    expect(parseOrderData(JSON.stringify({ products: list(PRODUCT_ENTRIES, 10) }))).toEqual([]);
    // An entry that takes the products past the values cap is not read, nor any after it.
    const big = { id: 'big', name: 'Big', extra: Array.from({ length: BODY_CAPS.fields }, () => 0) };
    expect(parseOrderData(JSON.stringify({ products: [product(1), big, product(2)] })).map((p) => p.external_id)).toEqual(['p1']);
    // The order data is the first level and products the second; nesting elsewhere is never parsed.
    const deep = (levels: number) => `{"products":[${JSON.stringify(product(1))},${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}]}`;
    expect(parseOrderData(deep(BODY_CAPS.depth))).toHaveLength(1);
    expect(parseOrderData(deep(BODY_CAPS.depth + 1))).toEqual([]);
    expect(parseOrderData(`{"x":${'['.repeat(1000)}${']'.repeat(1000)},"products":[${JSON.stringify(product(1))}]}`)).toHaveLength(1);
  });

  it('finds products as JSON.parse would (escaped keys, PHP-style objects, keys only at the top), stopping there', () => {
    const ids = (text: string) => parseOrderData(text).map((p) => p.external_id);
    // Encoders never repeat a key; the first products is read, and nothing after the products is.
    expect(ids(`{"products":[${JSON.stringify(product(1))}],"products":[${JSON.stringify(product(2))}]}`)).toEqual(['p1']);
    expect(ids(`{"products":[${JSON.stringify(product(1))}],"rest":"${'x'.repeat(100)}`)).toEqual(['p1']);
    expect(ids(`{"products":"none","x":[${JSON.stringify(product(1))}]}`)).toEqual([]);
    expect(ids(`{"pro\\u0064ucts" : [${JSON.stringify(product(3))}]}`)).toEqual(['p3']);
    expect(ids(JSON.stringify({ products: { 0: product(4), 1: product(5) } }))).toEqual(['p4', 'p5']);
    expect(ids(JSON.stringify({ order: { products: [product(6)] }, note: '"products":[{"id":"x","name":"y"}]' }))).toEqual([]);
    expect(ids(`[{"products":[${JSON.stringify(product(7))}]}]`)).toEqual([]);
    expect(ids(`{ "products" : [ ${JSON.stringify(product(8))} , ${JSON.stringify(product(9))} ] , "x": {`)).toEqual(['p8', 'p9']);
  });
});
