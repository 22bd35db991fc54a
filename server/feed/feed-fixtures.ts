// Shared by the feed's tests: stored reviews to render, and validation against Google's schema (approximate 2.3).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
import type { Review, ReviewProduct } from '../reviews/model.js';
import { storedReview } from '../../test/review-fixture.js';

const XSD = fileURLToPath(new URL('./product_reviews-2.3-approx.xsd', import.meta.url));

export function product(overrides: Partial<ReviewProduct> = {}): ReviewProduct {
  return {
    external_id: '101',
    name: 'Racefiets',
    url: 'https://shop.example/racefiets',
    image_url: '',
    sku: 'RF-1',
    gtin: '8712345678906',
    mpn: '',
    brand: '',
    rating: null,
    content: '',
    ...overrides,
  };
}

export function review(overrides: Partial<Review> = {}): Review {
  return storedReview({
    created: new Date(Date.UTC(2024, 10, 3, 7, 0, 0)),
    modified: new Date(Date.UTC(2024, 10, 4, 9, 30, 0)),
    verified: false,
    products: [product()],
    ...overrides,
  });
}

/** The spec's own elements, which Google's strict sequence does not allow. */
export function withoutSpecElements(xml: string): string {
  return xml.replace(/<(email|valid|deleted|modified|external_id)(\/>|>[^<]*<\/\1>)/g, '');
}

export async function validateAgainstXsd(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const schema = await readFile(XSD, 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'feed.xml', contents: xml }], schema: [schema] });
  return { valid: result.valid, errors: result.errors.map((e) => e.message) };
}
