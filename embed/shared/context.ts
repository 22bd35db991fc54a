// What the loader hands to the app when the app's script has run (see loader/sidebar.ts): the contract between
// the two bundles, which are built and loaded separately.
import type { Lang } from './language.js';
import type { Settings } from './settings.js';
import type { Shop } from './api-types.js';

export interface EmbedContext {
  /** The service's base URL, taken from the loader's own `src` (so an https page gets https assets). */
  base: string;
  id: number;
  /** The configured BRAND word (`service`): identifiers such as `_service_consent`, `servicePopup`. */
  brand: string;
  /** The brand word with a capital (`Service`): the tooltip class, computed once by the server. */
  brandClass: string;
  /** The configured BRAND_NAME, shown to shoppers. */
  brandName: string;
  /** `{base}/embed/assets/{version}`: where app.js and the strings are. */
  assets: string;
  shop: Shop;
  /** The strings of the shop's language, fetched by the loader while the app loads (the page may want another). */
  strings?: Promise<Response>;
  // Set by the app as it starts (main.tsx): the page globals are read once, by the app that uses them.
  settings: Settings;
  lang: Lang;
  /** The in-flow block the loader inserted for the mobile top bar, when it did. */
  spacer?: HTMLElement;
  /**
   * The shop's element last clicked before the app arrived (its pop-up opens when the app starts); null once the app
   * (or, when the app cannot come, the loader) has stopped keeping clicks.
   */
  queued?: HTMLElement | null;
}

/** The narrow-viewport breakpoint: below it the mobile modes apply. */
export const NARROW_QUERY = '(max-width: 767px)';
/** Height of the mobile top bar (and of the loader's spacer that makes room for it). */
export const TOP_BAR_PX = 48;
