// order_data arrives as one JSON string inside the form, up to 4 MB: only its products are parsed, and only the
// first of them.
import { describe, expect, it, vi } from 'vitest';
import { BODY_CAPS } from '../http/body.js';
import { parseOrderData } from './input.js';
import { PRODUCT_ENTRIES, productsJson } from './order-data.js';

const product = (i: number) => ({ id: `p${i}`, name: `Product ${i}` });

/** parseOrderData's products, and the lengths of the texts it handed to JSON.parse. */
function parsed(text: string) {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    const products = parseOrderData(text);
    return { products, parsedLengths: parse.mock.calls.map(([t]) => t.length) };
  } finally {
    parse.mockRestore();
  }
}

// Tens of ms for 4 MB on a quiet machine (bench/bodies.ts measures it); what keeps it so is held here by what is
// handed to JSON.parse: the products, cut after their first entries, never the whole text.
describe('order_data', () => {
  it('gives no products for 4 MB of nesting or values, and parses none of it (JSON.parse alone took seconds)', () => {
    const half = 2 * 1024 * 1024;
    const nesting = `${'['.repeat(half)}${']'.repeat(half)}`;
    expect(productsJson(nesting)).toBeUndefined();
    expect(parsed(nesting)).toEqual({ products: [], parsedLengths: [] });
    const values = `{"products":[${'0,'.repeat(half - 8)}0]}`;
    // Cut after the first entries read: two characters each.
    expect(productsJson(values)).toBe(`[${'0,'.repeat(PRODUCT_ENTRIES - 1)}0]`);
    expect(parsed(values)).toEqual({ products: [], parsedLengths: [2 * PRODUCT_ENTRIES + 1] });
  });

  it('reads the products of a dense 4 MB order_data, and parses only them, whatever else it holds (all of it was parsed)', () => {
    const extras = Array.from({ length: 250_000 }, (_, i) => ({ [`k${i}`]: i % 10 }));
    const text = JSON.stringify({ extras, products: [product(1), product(2)], customer: { name: 'x'.repeat(100) } });
    expect(text.length).toBeGreaterThan(3 * 1024 * 1024);
    const products = JSON.stringify([product(1), product(2)]);
    expect(productsJson(text)).toBe(products);
    const { products: read, parsedLengths } = parsed(text);
    expect(read.map((p) => p.external_id)).toEqual(['p1', 'p2']);
    expect(parsedLengths).toEqual([products.length]);
  });

  it(`reads the first ${PRODUCT_ENTRIES} entries of products, up to ${BODY_CAPS.fields} values, nested at most ${BODY_CAPS.depth} levels`, () => {
    // Unusable entries first: only the entries read can give products.
    const list = (unusable: number, usable: number) => [
      ...Array.from({ length: unusable }, () => ({})),
      ...Array.from({ length: usable }, (_, i) => product(i)),
    ];
    expect(parseOrderData(JSON.stringify({ products: list(PRODUCT_ENTRIES - 3, 10) }))).toHaveLength(3);
    expect(parseOrderData(JSON.stringify({ products: list(PRODUCT_ENTRIES, 10) }))).toEqual([]);
    // An entry that takes the products past the values cap is not read, nor any after it.
    const big = { id: 'big', name: 'Big', extra: Array.from({ length: BODY_CAPS.fields }, () => 0) };
    expect(
      parseOrderData(JSON.stringify({ products: [product(1), big, product(2)] })).map((p) => p.external_id),
    ).toEqual(['p1']);
    // The order data is the first level and products the second; nesting elsewhere is never parsed.
    const deep = (levels: number) =>
      `{"products":[${JSON.stringify(product(1))},${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}]}`;
    expect(parseOrderData(deep(BODY_CAPS.depth))).toHaveLength(1);
    expect(parseOrderData(deep(BODY_CAPS.depth + 1))).toEqual([]);
    expect(
      parseOrderData(`{"x":${'['.repeat(1000)}${']'.repeat(1000)},"products":[${JSON.stringify(product(1))}]}`),
    ).toHaveLength(1);
  });

  it('finds products as JSON.parse would (escaped keys, PHP-style objects, keys only at the top), stopping there', () => {
    const ids = (text: string) => parseOrderData(text).map((p) => p.external_id);
    // Encoders never repeat a key; the first products is read, and nothing after the products is.
    expect(ids(`{"products":[${JSON.stringify(product(1))}],"products":[${JSON.stringify(product(2))}]}`)).toEqual([
      'p1',
    ]);
    expect(ids(`{"products":[${JSON.stringify(product(1))}],"rest":"${'x'.repeat(100)}`)).toEqual(['p1']);
    expect(ids(`{"products":"none","x":[${JSON.stringify(product(1))}]}`)).toEqual([]);
    expect(ids(`{"pro\\u0064ucts" : [${JSON.stringify(product(3))}]}`)).toEqual(['p3']);
    expect(ids(JSON.stringify({ products: { 0: product(4), 1: product(5) } }))).toEqual(['p4', 'p5']);
    expect(
      ids(JSON.stringify({ order: { products: [product(6)] }, note: '"products":[{"id":"x","name":"y"}]' })),
    ).toEqual([]);
    expect(ids(`[{"products":[${JSON.stringify(product(7))}]}]`)).toEqual([]);
    expect(ids(`{ "products" : [ ${JSON.stringify(product(8))} , ${JSON.stringify(product(9))} ] , "x": {`)).toEqual([
      'p8',
      'p9',
    ]);
  });
});
