// The product's structured data (issue 22): a schema.org Product whose `@id` is the product's own URL, so that it
// merges with the Product markup the shop platform prints, with the figures and recent reviews the page shows.
// Plugins print this JSON inside a <script> element, so the text is made safe for that: `<`, `>`, `&`, U+2028 and
// U+2029 written as \uXXXX (a review containing `</script>` stays text), and only http(s) URLs pass (rules.ts httpUrl).
import { gtinOf } from '../feed/feed.js';
import { formatDate } from '../time.js';
import type { Aggregate, ProductEntry, ProductReview } from './rules.js';

/** The recent reviews given with the figures. */
const JSON_LD_REVIEWS = 10;

/** JSON text safe to print inside <script type="application/ld+json"> in any HTML page. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const rating = (value: number) => ({ '@type': 'Rating', ratingValue: value, bestRating: 5, worstRating: 1 });

function reviewLd(r: ProductReview, anonymous: string) {
  return {
    '@type': 'Review',
    author: { '@type': 'Person', name: r.name.trim() || anonymous },
    datePublished: formatDate(r.date),
    ...(r.title ? { name: r.title } : {}),
    ...(r.text ? { reviewBody: r.text } : {}),
    reviewRating: rating(r.rating),
  };
}

/** `aggregateRating` and `review`: all that `part=rating` answers, for plugins that merge into their own Product. */
export function ratingPart(product: ProductEntry, figures: Aggregate) {
  return {
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: figures.average,
      reviewCount: figures.count,
      bestRating: 5,
      worstRating: 1,
    },
    review: product.reviews.slice(0, JSON_LD_REVIEWS).map((r) => reviewLd(r, 'Anonymous')),
  };
}

/** The whole Product; ids and brand only as known. */
export function productJsonLd(product: ProductEntry, figures: Aggregate) {
  const { info } = product;
  const gtin = gtinOf(info.gtin);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    ...(info.url ? { '@id': info.url } : {}),
    ...(info.name ? { name: info.name } : {}),
    ...(info.url ? { url: info.url } : {}),
    ...(info.image ? { image: info.image } : {}),
    ...(info.sku ? { sku: info.sku } : {}),
    ...(gtin ? { gtin } : {}),
    ...(info.mpn ? { mpn: info.mpn } : {}),
    ...(info.brand ? { brand: { '@type': 'Brand', name: info.brand } } : {}),
    ...ratingPart(product, figures),
  };
}
