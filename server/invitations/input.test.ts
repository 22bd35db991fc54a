import { describe, expect, expectTypeOf, it } from 'vitest';
import { isValidEmail, normalizeEmail } from '../email.js';
import { httpUrl, parseInvitationInput, parseOrderData, MAX_PRODUCTS } from './input.js';
import type { ReviewProduct } from '../reviews/model.js';
import type { InvitationProduct } from './model.js';
import type { z } from 'zod';
import type { listedInvitation } from './openapi.js';
import type { ListedInvitationBody } from './routes.js';

describe('e-mail addresses', () => {
  it.each([
    'jane@example.com',
    'jane.doe+shop@mail.example.co.uk',
    "o'brien@example.ie",
    'jürgen@bücher.example',
    'a@xn--bcher-kva.example',
  ])('accepts %s', (address) => expect(isValidEmail(address)).toBe(true));

  it.each([
    'jane',
    'jane@',
    '@example.com',
    'jane@example',
    'jane@@example.com',
    'ja ne@example.com',
    'jane@exa mple.com',
    '.jane@example.com',
    'jane..doe@example.com',
    'jane@example..com',
    'jane@-example.com',
    'jane@127.0.0.1',
    'jane@example.com\nBcc: x@y.z',
    `${'a'.repeat(65)}@example.com`,
  ])('refuses %j', (address) => expect(isValidEmail(address)).toBe(false));

  it('trims and lower-cases only the domain', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('Jane.Doe@example.com');
  });
});

describe('Add invitation input', () => {
  it('reads the string forms plugins send and ignores unknown fields', () => {
    const input = parseInvitationInput(
      {
        email: 'jane@example.com',
        order: '000123',
        delay: ' 3 ',
        language: 'nl_NL',
        customer_name: ' Jane\tDoe ',
        noremail: '1',
        order_total: '42.500000',
      },
      'en',
    );
    expect(input).toMatchObject({
      email: 'jane@example.com',
      order: '000123',
      delay: 3,
      language: 'nl',
      customerName: 'Jane Doe',
      maxPerEmail: null,
    });
  });

  it('treats empty strings as not given', () => {
    const input = parseInvitationInput(
      { email: 'jane@example.com', order: '', delay: '', language: '', client: '', max_invitations_per_email: '' },
      'de',
    );
    expect(input).toMatchObject({ order: '', delay: 0, language: 'de', client: null, maxPerEmail: null });
  });

  it('clamps the delay into 0–365 days and names it when it is not an integer', () => {
    expect(parseInvitationInput({ email: 'a@b.example', delay: '400' }, 'en').delay).toBe(365);
    expect(parseInvitationInput({ email: 'a@b.example', delay: '-2' }, 'en').delay).toBe(0);
    expect(() => parseInvitationInput({ email: 'a@b.example', delay: '1.5' }, 'en')).toThrow(/delay/);
  });

  it('refuses arrays where a single value is needed (operator injection)', () => {
    expect(() => parseInvitationInput({ email: { $ne: '' } }, 'en')).toThrow(/email/);
    expect(() => parseInvitationInput({ email: 'a@b.example', order: { $gt: '' } }, 'en')).toThrow(/order/);
  });
});

describe('order_data', () => {
  it('keeps usable products and skips the rest', () => {
    const products = parseOrderData(
      JSON.stringify({
        order: { id: 1 },
        customer: { email: 'x@y.z' },
        products: [
          { id: 7, name: 'Lamp', gtin: 8712345678906, brand: 'Acme', reviews_allowed: true },
          {
            product_id: '3f1c2a9e-7b1d-4c2e-9a57-0c1d2e3f4a5b',
            name: 'Chair',
            image_urls: ['//cdn.example/chair.jpg'],
          },
          { id: 8 },
          { name: 'No id' },
          null,
          'text',
          { id: 9, name: 'Evil', url: 'javascript:alert(1)' },
          { id: 7, name: 'Lamp again' },
        ],
      }),
    );
    expect(products).toEqual([
      {
        external_id: '7',
        name: 'Lamp',
        url: '',
        image_url: '',
        sku: '',
        gtin: '8712345678906',
        mpn: '',
        brand: 'Acme',
      },
      {
        external_id: '3f1c2a9e-7b1d-4c2e-9a57-0c1d2e3f4a5b',
        name: 'Chair',
        url: '',
        image_url: 'https://cdn.example/chair.jpg',
        sku: '',
        gtin: '',
        mpn: '',
        brand: '',
      },
      { external_id: '9', name: 'Evil', url: '', image_url: '', sku: '', gtin: '', mpn: '', brand: '' },
    ]);
  });

  it.each([['not json {'], ['[1,2]'], ['"text"'], ['{"products":"x"}'], [undefined], [42]])(
    'gives no products for %j',
    (value) => {
      expect(parseOrderData(value)).toEqual([]);
    },
  );

  it('accepts products as a bracket-encoded object and caps their number', () => {
    const many = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [String(i), { id: String(i), name: `P${i}` }]),
    );
    const products = parseOrderData({ products: many });
    expect(products).toHaveLength(MAX_PRODUCTS);
    expect(products[0]).toMatchObject({ external_id: '0', name: 'P0' });
  });

  it('keeps only http(s) URLs', () => {
    expect(httpUrl('https://shop.example/p/1')).toBe('https://shop.example/p/1');
    expect(httpUrl('data:text/html,x')).toBe('');
    expect(httpUrl('not a url')).toBe('');
  });
});

describe('the invitation model and its listing', () => {
  it("declares an order's product as the review's product starts out (checked by the type-check)", () => {
    // model.ts declares it on its own so the invitation's path does not pass through reviews/model.ts.
    expectTypeOf<InvitationProduct>().toEqualTypeOf<Omit<ReviewProduct, 'rating' | 'content'>>();
  });

  it('lists an invitation as the documented schema describes it (checked by the type-check)', () => {
    // routes.ts declares the body itself so that the route's path does not pass through the OpenAPI module.
    expectTypeOf<ListedInvitationBody>().toEqualTypeOf<z.infer<typeof listedInvitation>>();
  });
});
