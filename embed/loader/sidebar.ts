// sidebar.js: the loader a shop puts on every page. No framework: it reads the page globals, fetches the shop's
// summary, and injects the app only when something needs it (the sidebar, an element with one of our classes, the
// order-data element). `__BRAND__` (e.g. `service`), `__BRAND_CLASS__` (`Service`), `__BRAND_NAME__` and
// `__ASSETS__` are filled in by the server when it serves this file (server/embed/assets.ts).
import { readGlobals, mergeSettings } from '../shared/settings.js';
import { detectLanguage } from '../shared/language.js';
import { NARROW_QUERY, TOP_BAR_PX, type EmbedContext, type Shop } from '../shared/context.js';

const BRAND = '__BRAND__';
const BRAND_CLASS = '__BRAND_CLASS__';
const BRAND_NAME = '__BRAND_NAME__';
const ASSETS = '__ASSETS__';

// Only valid while this script runs for the first time, hence read at once.
const self = document.currentScript as HTMLScriptElement | null;

async function boot(script: HTMLScriptElement): Promise<void> {
  const src = new URL(script.src);
  const id = Number(src.searchParams.get('id'));
  const base = new URL('.', src).href.slice(0, -1);
  const globals = readGlobals(window, BRAND);
  // Our origin sets no cookies, and a cross-origin fetch sends none by default.
  const response = await fetch(`${base}/embed/${id}/shop.json`);
  if (!response.ok) throw Error(`shop ${id}: ${response.status}`);
  const shop = (await response.json()) as Shop;
  const settings = mergeSettings(shop.settings, globals);
  const lang = detectLanguage(
    settings.language,
    { url: new URL(location.href), htmlLang: document.documentElement.lang, languages: navigator.languages || [] },
    shop.language,
  );
  const ctx = { base, id, brand: BRAND, brandName: BRAND_NAME, shop, settings, lang } as EmbedContext;

  // The mobile top bar pushes the page down once, as early as possible: a block of its height at the top of body.
  if (settings.sidebar && settings.mobile === 'top_bar' && matchMedia(NARROW_QUERY).matches) {
    ctx.spacer = document.createElement('div');
    ctx.spacer.style.cssText = `all:initial;display:block;height:${TOP_BAR_PX}px`;
    // Without a body yet, the app inserts it (App.tsx, syncSpacer).
    document.body?.prepend(ctx.spacer);
  }

  const load = () => {
    const assets = `${base}/${ASSETS}`;
    ctx.strings = fetch(`${assets}/strings/${lang}.json`).then((r) => r.json());
    const app = document.createElement('script');
    app.src = `${assets}/app.js`;
    app.nonce = script.nonce;
    // The app announces itself on its own script element: no global name is needed to hand over the context.
    app.addEventListener('mount', (event) => (event as CustomEvent<(c: EmbedContext) => void>).detail(ctx));
    document.head.append(app);
  };

  const selector = `#${BRAND}_order_completed,.${BRAND_CLASS},.${BRAND}Popup,.${BRAND}Reviews,.${BRAND}AddReview`;
  if (settings.sidebar || document.querySelector(selector)) return load();
  // Single-page apps and late parsing: load as soon as an element that needs the app appears.
  const watcher = new MutationObserver(() => document.querySelector(selector) && (watcher.disconnect(), load()));
  watcher.observe(document.documentElement, { childList: true, subtree: true });
}

if (self) boot(self).catch((err) => console.warn(`${BRAND_NAME}: ${err}`));
