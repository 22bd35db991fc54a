// order_data arrives as one JSON string inside the form: its parse is bounded like a JSON body's.
import { describe, expect, it } from 'vitest';
import { BODY_CAPS } from '../http/body.js';
import { parseOrderData } from './input.js';

/** The fastest of three runs, in ms: a busy machine slows some runs, never all three by seconds. */
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

describe('order_data past the body caps', () => {
  it('gives no products, quickly, for 4 MB of nesting or values (JSON.parse alone took seconds)', () => {
    const half = 2 * 1024 * 1024;
    for (const text of [`${'['.repeat(half)}${']'.repeat(half)}`, `{"products":[${'0,'.repeat(half - 8)}0]}`]) {
      expect(parseOrderData(text)).toEqual([]);
      expect(fastest(() => parseOrderData(text))).toBeLessThan(150);
    }
  });

  it(`reads order_data of up to ${BODY_CAPS.fields} values and ${BODY_CAPS.depth} levels; past them, none`, () => {
    // Each product is an object holding two values, in a list: 1 + 1 + 3 per product.
    const within = JSON.stringify({ products: Array.from({ length: Math.floor((BODY_CAPS.fields - 2) / 3) }, (_, i) => product(i)) });
    expect(parseOrderData(within)).toHaveLength(100);
    const past = JSON.stringify({ products: Array.from({ length: Math.ceil(BODY_CAPS.fields / 3) }, (_, i) => product(i)) });
    expect(parseOrderData(past)).toEqual([]);
    const deep = (levels: number) => `{"products":[${JSON.stringify(product(1))}],"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    expect(parseOrderData(deep(BODY_CAPS.depth))).toHaveLength(1);
    expect(parseOrderData(deep(BODY_CAPS.depth + 1))).toEqual([]);
  });
});
