// What every product surface shows of one product, read once: the product `product=` names, its figures by the
// counting rule, and its reviews as the shopper listed them (the in-page fragment and the widget's product layout).
import type { Language } from '../languages.js';
import type { Listing } from '../pages/listing.js';
import type { Services } from '../services.js';
import type { FragmentData, FragmentNav } from './fragment.js';
import { aggregate, listProductReviews } from './rules.js';

export interface ProductViewInput {
  shop: { id: number; name: string };
  product: string;
  lang: Language;
  theme: FragmentData['theme'];
  page: number;
  listing: Listing;
  nav: FragmentNav;
  votes: FragmentData['votes'];
}

/**
 * Whether incentivised reviews count in a product's figures. Always, until the shop setting INCENTIVISED_IN_SCORE
 * exists (another change adds it): then read it from the shop here, for every product surface at once.
 */
export const countIncentivised = (_shop: { id: number }): boolean => true;

export async function productView(
  services: Pick<Services, 'products' | 'helpful'>,
  input: ProductViewInput,
): Promise<FragmentData> {
  const [product, helpful] = await Promise.all([
    services.products.find(input.shop.id, input.product),
    services.helpful.countsOf(input.shop.id),
  ]);
  const reviews = product?.reviews ?? [];
  return {
    lang: input.lang,
    theme: input.theme,
    shopName: input.shop.name,
    product,
    aggregate: aggregate({ reviews, countIncentivised: countIncentivised(input.shop) }),
    listed: listProductReviews(reviews, input.listing, helpful),
    listing: input.listing,
    page: input.page,
    helpful,
    nav: input.nav,
    votes: input.votes,
  };
}
