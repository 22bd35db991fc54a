// Property tests of Add invitation's input (the fields and the order_data parser) with random and adversarial
// values: only ClassicError is thrown, what comes out is well formed, and big values take linear time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClassicError } from '../http/errors.js';
import { fastestMs, fuzzOptions, repeated, textOf } from '../../test/fuzz.js';
import { MAX_PRODUCTS, parseInvitationInput, parseOrderData, text } from './input.js';
import type { InvitationProduct } from './model.js';

/** For values of about 1 MB: tens of ms when linear; the margin is for a machine busy with other work. */
const LINEAR_MS = 1000;
const CONTROL = /[\u0000-\u001f\u007f]/;

function expectProducts(products: InvitationProduct[]): void {
  expect(products.length).toBeLessThanOrEqual(MAX_PRODUCTS);
  expect(new Set(products.map((p) => p.external_id)).size).toBe(products.length);
  for (const p of products) {
    expect(p.external_id.length).toBeGreaterThan(0);
    expect(p.external_id.length).toBeLessThanOrEqual(200);
    expect(p.name.length).toBeGreaterThan(0);
    expect(p.name.length).toBeLessThanOrEqual(500);
    for (const text of Object.values(p)) expect(text).not.toMatch(CONTROL);
    for (const url of [p.url, p.image_url]) if (url) expect(url).toMatch(/^https?:\/\//);
  }
}

// Products as plugins send them, with every field sometimes of the wrong type or shape.
const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);
const product = fc.record(
  {
    id: fc.oneof(fc.string({ maxLength: 6 }), fc.nat(20), anyValue),
    product_id: fc.oneof(fc.string({ maxLength: 6 }), anyValue),
    name: fc.oneof(fc.string(), textOf(' \t\n\u0000\u007fab', 20), anyValue),
    url: fc.oneof(
      fc.webUrl(),
      fc.constantFrom('javascript:alert(1)', '//cdn.example/x.png', 'data:text/html,x', ''),
      anyValue,
    ),
    image_url: fc.oneof(fc.webUrl(), fc.constant('//cdn.example/i.png'), anyValue),
    image_urls: fc.oneof(fc.array(fc.webUrl(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.webUrl()), anyValue),
    sku: anyValue,
    gtin: anyValue,
    brand: anyValue,
  },
  { requiredKeys: [] },
);
const orderData = fc.oneof(
  fc.record({ products: fc.array(fc.oneof(product, anyValue), { maxLength: 120 }) }, { requiredKeys: [] }),
  // As a bracket-encoding client sends it: products keyed by index.
  fc
    .array(product, { maxLength: 10 })
    .map((list) => ({ products: Object.fromEntries(list.map((p, i) => [String(i), p])) })),
  anyValue,
);

describe('text fields', () => {
  // How text() read values before it went word by word.
  const byReplacing = (s: string, max: number) =>
    s
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, max);

  it('become single-line text as replacing blank runs made them', () => {
    fc.assert(
      fc.property(
        fc.oneof(textOf(' \t\n\r\u00a0\u3000\u0000\u007f\u200bab', 40), fc.string()),
        fc.integer({ min: 0, max: 12 }),
        (s, max) => {
          expect(text(s, max)).toBe(byReplacing(s, max));
        },
      ),
      fuzzOptions(2000),
    );
  });
});

describe('order_data', () => {
  it('gives well-formed products for any value, as JSON text or already nested, and never throws', () => {
    fc.assert(
      fc.property(orderData, fc.boolean(), (data, asText) => {
        expectProducts(parseOrderData(asText ? JSON.stringify(data) : data));
      }),
      fuzzOptions(600),
    );
  });

  it('reads the same products from the JSON text as from the parsed object (only products are parsed from text)', () => {
    fc.assert(
      fc.property(orderData, fc.constantFrom(undefined, 2), (data, indent) => {
        expect(parseOrderData(JSON.stringify(data, null, indent) ?? '')).toEqual(
          parseOrderData(JSON.parse(JSON.stringify(data) ?? 'null')),
        );
      }),
      fuzzOptions(600),
    );
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(textOf('{}[]",:\\0 tfnu', 200), (text) => expectProducts(parseOrderData(text))),
      fuzzOptions(1000),
    );
  });

  it('takes linear time on 1 MB of repeated pattern, whole or inside a product field', async () => {
    await fc.assert(
      fc.asyncProperty(repeated('{}[]",:\\0 \t\nab', 1024 * 1024), fc.boolean(), async (text, inField) => {
        const value = inField ? JSON.stringify({ products: [{ id: text, name: text, url: text, sku: text }] }) : text;
        let products: InvitationProduct[] = [];
        const ms = await fastestMs(() => (products = parseOrderData(value)), LINEAR_MS);
        expect(ms, JSON.stringify(text.slice(0, 40))).toBeLessThan(LINEAR_MS);
        expectProducts(products);
      }),
      fuzzOptions(10),
    );
  });
});

describe('Add invitation fields', () => {
  const field = fc.oneof(
    fc.string(),
    textOf(' -_0123456789@.abNL', 30),
    fc.constantFrom('', ' 3 ', '-1', '99999999999999999', 'jane@example.com', 'nl_NL', 'cus'),
    fc.array(fc.string(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
  );
  const params = fc.record(
    {
      email: fc.oneof(fc.emailAddress(), field),
      order: field,
      delay: field,
      language: field,
      customer_name: field,
      max_invitations_per_email: field,
      client: field,
      order_data: fc.oneof(
        orderData.map((d) => JSON.stringify(d)),
        field,
      ),
    },
    { requiredKeys: [] },
  );

  const parsed = (input: Record<string, unknown>) => {
    try {
      return parseInvitationInput(input, 'en');
    } catch (err) {
      if (err instanceof ClassicError) return err;
      throw err;
    }
  };

  it('read into a well-formed input, or a ClassicError naming the problem', () => {
    fc.assert(
      fc.property(params, (input) => {
        const result = parsed(input);
        if (result instanceof ClassicError) {
          expect(result.message.length).toBeGreaterThan(0);
          return;
        }
        expect(result.email).toContain('@');
        expect(result.order.length).toBeLessThanOrEqual(200);
        expect(Number.isInteger(result.delay) && result.delay >= 0 && result.delay <= 365).toBe(true);
        expect(result.customerName.length).toBeLessThanOrEqual(200);
        expect(result.customerName).not.toMatch(CONTROL);
        expect(result.maxPerEmail === null || (Number.isInteger(result.maxPerEmail) && result.maxPerEmail > 0)).toBe(
          true,
        );
        expectProducts(result.products);
      }),
      fuzzOptions(1000),
    );
  });

  it('reads a 4 MB language of separators without splitting all of it (that made 4 million strings)', async () => {
    const input = { email: 'jane@example.com', language: '-'.repeat(4 * 1024 * 1024) };
    expect(await fastestMs(() => parsed(input), 100)).toBeLessThan(100);
  });

  it('takes linear time when every field is 1 MB of repeated pattern', async () => {
    await fc.assert(
      fc.asyncProperty(repeated(' -_0a@.\t\u0000', 1024 * 1024), async (text) => {
        const input = {
          email: `a@example.com${text}`,
          order: text,
          delay: text,
          language: text,
          customer_name: text,
          client: text,
        };
        const ms = await fastestMs(() => parsed(input), LINEAR_MS);
        expect(ms, JSON.stringify(text.slice(0, 40))).toBeLessThan(LINEAR_MS);
      }),
      fuzzOptions(10),
    );
  });
});
