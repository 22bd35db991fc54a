// What the loader hands to the app when the app's script has run (see loader/sidebar.ts): the contract between
// the two bundles, which are built and loaded separately.
import type { Lang } from './language.js';
import type { Settings } from './settings.js';
import type { Strings } from '../strings/index.js';

export type Badge =
  | { key: 'approved'; since: string }
  | { key: 'verified_share'; value: number }
  | { key: 'member_years'; value: number };

/** `GET {base}/embed/{id}/shop.json` */
export interface Shop {
  id: number;
  name: string;
  url: string;
  page: string;
  logo: string;
  language: string;
  languages: string[];
  /** 1–10 with one decimal; 0 without reviews. */
  score: number;
  count: number;
  badges: Badge[];
  settings: Partial<Settings>;
  /** The shop accepts only signed order data: an unsigned order-data element gets no dialog. */
  require_signed_order_data?: boolean;
}

export interface EmbedContext {
  /** The service's base URL, taken from the loader's own `src` (so an https page gets https assets). */
  base: string;
  id: number;
  /** The configured BRAND word (`service`): identifiers such as `_service_consent`, `servicePopup`. */
  brand: string;
  /** The configured BRAND_NAME, shown to shoppers. */
  brandName: string;
  shop: Shop;
  settings: Settings;
  lang: Lang;
  strings: Promise<Strings>;
  /** The in-flow block the loader inserted for the mobile top bar, when it did. */
  spacer?: HTMLElement;
}

/** The narrow-viewport breakpoint: below it the mobile modes apply. */
export const NARROW_QUERY = '(max-width: 767px)';
/** Height of the mobile top bar (and of the loader's spacer that makes room for it). */
export const TOP_BAR_PX = 48;
