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

export async function productView(
  services: Pick<Services, 'config' | 'helpful' | 'products'>,
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
    aggregate: aggregate({ reviews, policy: services.config.scorePolicy }),
    listed: listProductReviews(reviews, input.listing, helpful),
    listing: input.listing,
    page: input.page,
    helpful,
    nav: input.nav,
    votes: input.votes,
  };
}
