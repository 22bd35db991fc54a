// The Google section's facts for one shop (operator API and dashboard): the feed's address with its key, when
// Google last fetched it, and the readiness figures, read from the built feed (built now if the shop's public data
// changed since) rather than from the reviews themselves.
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import type { FeedKey } from './key-store.js';
import { readinessOf, type Readiness } from './readiness.js';

const FEED_PATH = (shopId: number) => `/webshops/${shopId}/feeds/google-product-reviews.xml`;

/** The address to paste into Merchant Center (it carries the key: shown to owners, managers and the operator). */
const feedUrl = (baseUrl: string, shopId: number, key: string): string =>
  `${baseUrl}${FEED_PATH(shopId)}?key=${encodeURIComponent(key)}`;

export interface FeedAccess {
  url: string;
  key: string;
  last_fetched_at: string | null;
}

export const feedAccess = (baseUrl: string, shopId: number, key: FeedKey): FeedAccess => ({
  url: feedUrl(baseUrl, shopId, key.key),
  key: key.key,
  last_fetched_at: key.lastFetched ? key.lastFetched.toISOString() : null,
});

export interface GoogleSection extends FeedAccess {
  readiness: Readiness;
  /** Reviews imported from another platform are published here but never sent to Google. */
  has_imported_reviews: boolean;
}

export async function googleSection(
  services: Pick<Services, 'config' | 'feedKeys' | 'googleFeeds' | 'imports' | 'now'>,
  shop: Pick<Webshop, 'id' | 'name' | 'url' | 'logo' | 'updated'>,
): Promise<GoogleSection> {
  const key = await services.feedKeys.keyOf(shop.id);
  const built = await services.googleFeeds.current(shop, key);
  const readiness = readinessOf(built.tally, services.now());
  // A shop's imports are one document per file; product-only imports never count among its reviews.
  const imports = await services.imports.list(shop.id);
  const importedProducts = imports.some((i) => i.status === 'done' && i.counts.product_reviews > 0);
  return {
    ...feedAccess(services.config.baseUrl, shop.id, key),
    readiness,
    has_imported_reviews: readiness.imported_reviews > 0 || importedProducts,
  };
}

/** A new key for the shop's feed: the old one stops working at once, in every process (nothing caches it). */
export async function rotateFeedKey(
  services: Pick<Services, 'config' | 'feedKeys'>,
  shopId: number,
): Promise<FeedAccess> {
  return feedAccess(services.config.baseUrl, shopId, await services.feedKeys.rotate(shopId));
}
