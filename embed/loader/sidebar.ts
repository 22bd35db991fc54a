// sidebar.js: the loader a shop puts on every page. No framework: it reads the page globals, fetches the shop's
// summary, and injects the app only when something needs it (the sidebar, an element with one of our classes, the
// order-data element). `__BRAND__` (e.g. `service`), `__BRAND_CLASS__` (`Service`), `__BRAND_NAME__` and
// `__ASSETS__` are filled in by the server when it serves this file (server/embed/assets.ts).
import { MOBILE, setting, SIDEBAR } from '../shared/settings.js';
import { NARROW_QUERY, TOP_BAR_PX, type EmbedContext } from '../shared/context.js';
import type { Shop } from '../shared/api-types.js';

const BRAND = '__BRAND__';
const BRAND_CLASS = '__BRAND_CLASS__';
const BRAND_NAME = '__BRAND_NAME__';
const ASSETS = '__ASSETS__';

// Only valid while this script runs for the first time, hence read at once.
const self = document.currentScript as HTMLScriptElement | null;
const ctx = { brand: BRAND, brandClass: BRAND_CLASS, brandName: BRAND_NAME } as EmbedContext;
/** The shop's elements that open a pop-up when clicked. */
const openers = `.${BRAND_CLASS},.${BRAND}Popup,.${BRAND}Reviews,.${BRAND}AddReview`;

// A click that opens a pop-up, made before the app has arrived, is kept (the last one) and replayed by the app, which
// then sets `queued` to null and handles clicks itself. Modified clicks keep their usual meaning.
document.addEventListener('click', (e) => {
  const el = ctx.queued !== null && (e.target as Element).closest?.<HTMLElement>(openers);
  if (el && !(e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey)) {
    e.preventDefault();
    ctx.queued = el;
  }
});

async function boot(script: HTMLScriptElement): Promise<void> {
  const src = new URL(script.src);
  // biome-ignore-start lint/suspicious/noAssignInExpressions: the loader's byte budget (1,100 B gzip); one expression fills the context and names the value
  const id = (ctx.id = Number(src.searchParams.get('id')));
  const base = (ctx.base = new URL('.', src).href.slice(0, -1));
  // Our origin sets no cookies, and a cross-origin fetch sends none by default.
  const response = await fetch(`${base}/embed/${id}/shop.json`);
  if (!response.ok) throw response.status;
  const shop = (ctx.shop = (await response.json()) as Shop);
  // biome-ignore-end lint/suspicious/noAssignInExpressions: see above
  const sidebar = setting(SIDEBAR, window, BRAND, shop.settings);

  // The mobile top bar pushes the page down once, as early as possible: a block of its height at the top of body.
  if (sidebar && setting(MOBILE, window, BRAND, shop.settings) === 'top_bar' && matchMedia(NARROW_QUERY).matches) {
    ctx.spacer = document.createElement('div');
    ctx.spacer.style.cssText = `all:initial;display:block;height:${TOP_BAR_PX}px`;
    // Without a body yet, the app inserts it (App.tsx, syncSpacer).
    document.body?.prepend(ctx.spacer);
  }

  // biome-ignore lint/suspicious/noAssignInExpressions: the loader's byte budget, as above
  const assets = (ctx.assets = `${base}/${ASSETS}`);
  const add = (file: string) => {
    const chunk = document.createElement('script');
    chunk.src = `${assets}/${file}`;
    chunk.nonce = script.nonce;
    // A chunk announces itself on its own script element: no global name is needed to hand over the context.
    chunk.addEventListener('mount', (event) => (event as CustomEvent<(c: EmbedContext) => void>).detail(ctx));
    document.head.append(chunk);
  };
  /** Runs `then` once `found` is true: now, or when the page has changed (late parsing, single-page apps). */
  const when = (found: () => unknown, then: () => void) => {
    if (found()) return then();
    // biome-ignore lint/complexity/noCommaOperator: the loader's byte budget (1,100 B gzip)
    const watcher = new MutationObserver(() => found() && (watcher.disconnect(), then()));
    watcher.observe(document.documentElement, { childList: true, subtree: true });
  };

  // The product block (product.js, no framework): our element with a product, from the page global or its own
  // `data-product`. The chunk does the rest. Asked for first: it fills part of the page itself.
  when(
    () =>
      document.querySelector(
        `.${BRAND}ProductReviews${(window as unknown as Record<string, unknown>)[`_${BRAND}_product`] ? '' : '[data-product]'}`,
      ),
    () => add('product.js'),
  );
  // The app: the sidebar, or an element that needs it.
  when(
    () => sidebar || document.querySelector(`#${BRAND}_order_completed,${openers}`),
    () => {
      // The strings of the shop's language, on their way while the app loads: the app takes them when it detects
      // that language (the common case), and fetches another one otherwise.
      ctx.strings = fetch(`${assets}/strings/${shop.language}.json`);
      add('app.js');
    },
  );
}

if (self) {
  boot(self).catch((err) => {
    // Without the app a kept click would never be answered: let the shop's links work as links again.
    ctx.queued = null;
    console.warn(`${BRAND_NAME}: ${err}`);
  });
}
