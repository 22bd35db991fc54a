import { describe, expect, it } from 'vitest';
import { faviconOf, gtinOf, productContent, productScore, renderFeed, type FeedContext } from './feed.js';
import { product, review, validateAgainstXsd, withoutSpecElements } from './feed-fixtures.js';

const shop = { id: 12, name: 'Fiets & Co', url: 'https://fiets.example/', logo: '' };
const ctx = (detailed: boolean): FeedContext => ({
  shop,
  brandName: 'Service',
  baseUrl: 'https://reviews.example',
  detailed,
});

/** The text of the first element with this name inside `xml`. */
const first = (xml: string, name: string) => new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`).exec(xml)?.[1];
const entries = (xml: string) => xml.match(/<review>.*?<\/review>/g) ?? [];

// A feed with every kind of entry: several products, product scores and texts, no name, no text, odd ids,
// moderation states, and a deletion.
const variety = [
  review({
    id: 5,
    products: [
      product({ external_id: '101', rating: 5, content: 'Rijdt heerlijk' }),
      product({ external_id: 'uuid-7', name: 'Bel', url: '', sku: '', gtin: 'n/a', mpn: 'MP-1', brand: 'Ding' }),
    ],
  }),
  review({ id: 4, name: '   ', comment: null, is_spam: true, published: false, source: 'form' }),
  review({ id: 3, quarantine: true, published: false, announced: false, source: 'import' }),
  review({ id: 2, deleted: true, published: false, name: '', email: '', comment: null }),
  review({ id: 1, products: [] }),
];

describe('renderFeed: the document', () => {
  it('has the root elements of the spec, in order', () => {
    const xml = renderFeed([review()], ctx(true));
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed><version>2.3</version><aggregator><name>Service</name></aggregator>',
      ),
    ).toBe(true);
    expect(xml).toContain(
      '<publisher><name>Fiets &amp; Co</name><favicon>https://fiets.example/favicon.ico</favicon></publisher><reviews><review>',
    );
  });

  it('validates against Google’s schema once the spec’s own elements are removed (detailed=1)', async () => {
    const xml = renderFeed(variety, ctx(true));
    expect(xml).toContain('<deleted>1</deleted>');
    const result = await validateAgainstXsd(withoutSpecElements(xml));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is a plain Google feed as it is without detailed (detailed=0)', async () => {
    const xml = renderFeed(variety, ctx(false));
    expect(xml).not.toMatch(/<(email|valid|deleted|modified|external_id)\b/);
    const result = await validateAgainstXsd(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('keeps an empty <reviews/> for syncing clients, and leaves it out of the plain feed', async () => {
    expect(renderFeed([], ctx(true))).toContain('</publisher><reviews/></feed>');
    const plain = renderFeed([], ctx(false));
    expect(plain).toContain('</publisher></feed>');
    expect((await validateAgainstXsd(plain)).valid).toBe(true);
  });

  it('uses the shop logo as favicon when there is one', () => {
    expect(renderFeed([], { ...ctx(true), shop: { ...shop, logo: 'https://cdn.example/logo.png' } })).toContain(
      '<favicon>https://cdn.example/logo.png</favicon>',
    );
  });
});

describe('renderFeed: entries', () => {
  it('makes one entry per product, with ids unique in the feed whose integer part is the review id', () => {
    const xml = renderFeed(variety, ctx(true));
    const ids = entries(xml).map((e) => first(e, 'review_id'));
    expect(ids).toEqual(['5-1', '5-2', '4-1', '3-1', '2-1']);
  });

  it('writes every element of a detailed entry in Google’s order, then the spec’s', () => {
    const [entry] = entries(renderFeed([review({ verified: true })], ctx(true)));
    expect(entry).toBe(
      '<review><review_id>1-1</review_id><reviewer><name>Jan</name></reviewer>' +
        '<review_timestamp>2024-11-03T07:00:00+00:00</review_timestamp><content>Goede winkel</content>' +
        '<review_url type="singleton">https://reviews.example/webshops/12</review_url>' +
        '<ratings><overall min="1" max="5">4</overall></ratings>' +
        '<products><product><product_ids><gtins><gtin>8712345678906</gtin></gtins><skus><sku>RF-1</sku></skus></product_ids>' +
        '<product_name>Racefiets</product_name><product_url>https://shop.example/racefiets</product_url>' +
        '<external_id>101</external_id></product></products>' +
        '<is_spam>false</is_spam><collection_method>post_fulfillment</collection_method>' +
        '<email>jan@example.com</email><valid>1</valid><deleted/><modified>2024-11-04T09:30:00+00:00</modified></review>',
    );
  });

  it('uses the product’s own score and text when given, else the review’s', () => {
    const [own, fallback] = entries(renderFeed(variety.slice(0, 1), ctx(true)));
    expect(first(own!, 'overall')).toBe('5');
    expect(first(own!, 'content')).toBe('Rijdt heerlijk');
    expect(first(fallback!, 'overall')).toBe('4');
    expect(first(fallback!, 'content')).toBe('Goede winkel');
  });

  it('falls back to the shop URL, Anonymous, and the score as text', () => {
    const [, bel, nameless] = entries(renderFeed(variety, ctx(true)));
    expect(first(bel!, 'product_url')).toBe('https://fiets.example/');
    expect(bel).toContain(
      '<product_ids><mpns><mpn>MP-1</mpn></mpns><brands><brand>Ding</brand></brands></product_ids>',
    );
    expect(bel).toContain('<external_id>uuid-7</external_id>');
    expect(nameless).toContain('<reviewer><name is_anonymous="true">Anonymous</name></reviewer>');
    expect(first(nameless!, 'content')).toBe('4/5');
  });

  it('reports moderation: spam, validity and quarantine', () => {
    const [, , spam, quarantined] = entries(renderFeed(variety, ctx(true)));
    expect(first(spam!, 'is_spam')).toBe('true');
    expect(first(spam!, 'valid')).toBe('0');
    expect(first(spam!, 'collection_method')).toBe('unsolicited');
    expect(first(quarantined!, 'valid')).toBe('0');
    expect(first(quarantined!, 'collection_method')).toBe('unsolicited');
  });

  it('marks only invitation reviews post_fulfillment: pop-up, form and imported reviews are unsolicited', () => {
    const method = (source: 'invitation' | 'popup' | 'form' | 'import', verified: boolean) =>
      first(entries(renderFeed([review({ id: 9, source, verified })], ctx(false)))[0]!, 'collection_method');
    expect(method('invitation', true)).toBe('post_fulfillment');
    // A pop-up review with signed order data is a verified order, but it was not collected by an invitation.
    expect(method('popup', true)).toBe('unsolicited');
    expect(method('popup', false)).toBe('unsolicited');
    expect(method('form', false)).toBe('unsolicited');
    expect(method('import', true)).toBe('unsolicited');
  });

  it('keeps a deleted review with ids, products, deleted and modified, without personal data', () => {
    const deleted = review({
      id: 2,
      deleted: true,
      published: false,
      name: 'Still here',
      email: 'still@example.com',
      comment: 'Secret',
      products: [product({ content: 'Also secret', rating: 2 })],
    });
    const [entry] = entries(renderFeed([deleted], ctx(true)));
    expect(first(entry!, 'deleted')).toBe('1');
    expect(first(entry!, 'valid')).toBe('0');
    expect(first(entry!, 'modified')).toBe('2024-11-04T09:30:00+00:00');
    expect(first(entry!, 'external_id')).toBe('101');
    expect(entry).toContain('<email/>');
    expect(entry).toContain('is_anonymous="true"');
    expect(entry).not.toMatch(/Still here|still@example|Secret/);
  });

  it('lists only published entries in the plain feed, and withdrawn ones under deleted_reviews', () => {
    const xml = renderFeed(variety, ctx(false));
    expect(entries(xml).map((e) => first(e, 'review_id'))).toEqual(['5-1', '5-2']);
    // Spam (4) and deleted (2) were published once; the quarantined import (3) never was.
    expect(xml).toContain('<deleted_reviews><review_id>4-1</review_id><review_id>2-1</review_id></deleted_reviews>');
  });
});

describe('renderFeed: text', () => {
  it('escapes markup, ampersands and quotes everywhere', () => {
    const nasty = '<script>alert("x")</script> & \'quotes\'';
    const xml = renderFeed(
      [
        review({
          name: nasty,
          email: 'a&b@example.com',
          comment: nasty,
          products: [product({ name: nasty, sku: nasty, external_id: nasty, url: 'https://shop.example/?a=1&b="2"' })],
        }),
      ],
      { ...ctx(true), shop: { ...shop, name: nasty } },
    );
    expect(xml).not.toContain('<script>');
    expect(xml).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quotes&apos;');
    expect(xml).toContain('<product_url>https://shop.example/?a=1&amp;b=&quot;2&quot;</product_url>');
    expect(xml).toContain('<email>a&amp;b@example.com</email>');
  });

  it('drops control characters XML 1.0 forbids and keeps tabs, line breaks and emoji', async () => {
    const xml = renderFeed(
      [review({ comment: 'Goed\u0000\u0007\u001b\uFFFE\uD800 product\techt\r\ngoed 🚲', name: '\u0001\u0002' })],
      ctx(true),
    );
    expect(first(xml, 'content')).toBe('Goed product\techt\r\ngoed 🚲');
    expect(xml).toContain('is_anonymous="true"');
    expect((await validateAgainstXsd(withoutSpecElements(xml))).valid).toBe(true);
    expect(Buffer.from(xml, 'utf8').toString('utf8')).toBe(xml);
  });
});

describe('rules', () => {
  it('takes a product score only when it is 1–5', () => {
    expect(productScore({ rating: 3 }, { rating: 5 })).toBe(5);
    expect(productScore({ rating: 3 }, { rating: null })).toBe(3);
    expect(productScore({ rating: 3 }, { rating: 0 })).toBe(3);
  });

  it('takes the product text, then the review comment, then the score', () => {
    expect(productContent({ comment: 'review' }, { content: 'product' }, 4)).toBe('product');
    expect(productContent({ comment: 'review' }, { content: '  ' }, 4)).toBe('review');
    expect(productContent({ comment: null }, { content: '' }, 4)).toBe('4/5');
  });

  it.each([
    ['8712345678906', '8712345678906'],
    ['87 1234 5678 906', '8712345678906'],
    ['0-12345-67890-5', '012345678905'],
    ['1234567', undefined],
    ['n/a', undefined],
    ['', undefined],
  ])('reads GTIN %j as %j', (input, expected) => {
    expect(gtinOf(input)).toBe(expected);
  });

  it('derives the favicon from the shop', () => {
    expect(faviconOf({ url: 'https://www.shop.example/nl/winkel', logo: '' })).toBe(
      'https://www.shop.example/favicon.ico',
    );
    expect(faviconOf({ url: 'not a url', logo: '' })).toBeUndefined();
  });
});
