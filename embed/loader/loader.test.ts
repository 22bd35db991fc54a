// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"handleDisabledFileLoadingAsSuccess":true}}
// Runs the built loader (dist/embed/sidebar.js, filled in as the server serves it) on a page, with the script's own
// element, fetch and the viewport stubbed: what it reads, what it requests, and when it loads the app.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureEmbedBuilt } from '../test/build.js';
import { fillLoader } from '../../server/embed/assets.js';
import type { EmbedContext } from '../shared/context.js';

let loader = '';
beforeAll(async () => {
  loader = fillLoader(readFileSync(join(await ensureEmbedBuilt(), 'sidebar.js'), 'utf8'), 'service', 'Service', 'v1');
}, 120_000);

const SHOP = { id: 42, name: 'Fiets & Co', language: 'nl', score: 9.2, count: 12, badges: [], settings: {} };
const scope = window as unknown as Record<string, unknown>;

interface Run {
  src?: string;
  html?: string;
  globals?: Record<string, unknown>;
  shop?: object | null;
  narrow?: boolean;
}

async function run({
  src = 'https://reviews.example/sidebar.js?id=42&c=2892888',
  html = '',
  globals = {},
  shop = SHOP,
  narrow = false,
}: Run = {}) {
  document.head.innerHTML = '';
  document.body.innerHTML = html;
  Object.assign(scope, globals);
  const script = document.createElement('script');
  script.src = src;
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script);
  const fetch = vi.fn(async (url: string) =>
    url.endsWith('/shop.json')
      ? new Response(JSON.stringify(shop ?? { error: { code: 'not_found' } }), { status: shop ? 200 : 404 })
      : new Response('{"close":"Close"}'),
  );
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: narrow && query.includes('max-width'), media: query }));
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  new Function(loader)();
  await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
  await new Promise((ok) => setTimeout(ok, 20));
  // (The last one: a loader of an earlier run that is still watching the page may have loaded its own meanwhile.)
  const app = () => [...document.head.querySelectorAll<HTMLScriptElement>('script')].pop() ?? null;
  return { fetch, warn, app, urls: () => fetch.mock.calls.map(([url]) => url) };
}

/** What the loader hands to the app once the app's script has announced itself. */
async function handOver(app: HTMLScriptElement): Promise<EmbedContext> {
  return new Promise((ok) => app.dispatchEvent(new CustomEvent('mount', { detail: ok })));
}

// A page runs the loader once; here the document listeners of each test's runs are removed after it.
const listeners: [string, EventListenerOrEventListenerObject][] = [];
const addListener = document.addEventListener.bind(document);
beforeEach(() => {
  vi.spyOn(document, 'addEventListener').mockImplementation(
    (type: string, listener: EventListenerOrEventListenerObject) => {
      listeners.push([type, listener]);
      addListener(type, listener);
    },
  );
});

// And the watchers a run leaves on the page while nothing it waits for has appeared.
const observers: MutationObserver[] = [];
beforeEach(() => {
  const Native = globalThis.MutationObserver;
  vi.stubGlobal(
    'MutationObserver',
    class extends Native {
      constructor(callback: MutationCallback) {
        super(callback);
        observers.push(this);
      }
    },
  );
});

afterEach(() => {
  for (const observer of observers.splice(0)) observer.disconnect();
  for (const [type, listener] of listeners.splice(0)) document.removeEventListener(type, listener);
  for (const name of Object.keys(scope).filter((k) => k.startsWith('_service_'))) delete scope[name];
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('sidebar.js', () => {
  it("takes its base URL and the shop id from its own src, fetches the shop, and loads the app and the shop language's strings", async () => {
    const { urls, app } = await run();
    expect(app()?.src).toBe('https://reviews.example/embed/assets/v1/app.js');
    expect(urls()).toEqual([
      'https://reviews.example/embed/42/shop.json',
      'https://reviews.example/embed/assets/v1/strings/nl.json',
    ]);
  });

  it('works from a path prefix and keeps the page scheme of its src', async () => {
    const { urls } = await run({ src: 'https://host.example/reviews/sidebar.js?id=42&c=x&utm=1' });
    expect(urls()[0]).toBe('https://host.example/reviews/embed/42/shop.json');
  });

  it('hands the app what it knows: where it came from, the shop, and the strings on their way', async () => {
    const { app } = await run({ html: '' });
    const ctx = await handOver(app()!);
    expect(ctx).toMatchObject({
      base: 'https://reviews.example',
      id: 42,
      brand: 'service',
      brandClass: 'Service',
      brandName: 'Service',
    });
    expect(ctx).toMatchObject({ assets: 'https://reviews.example/embed/assets/v1', shop: SHOP });
    expect(await (await ctx.strings!).json()).toEqual({ close: 'Close' });
  });

  it('reads the sidebar and mobile globals over the dashboard configuration, without warning (the app warns)', async () => {
    const shop = { ...SHOP, settings: { sidebar: false } };
    const { app, warn } = await run({
      shop,
      globals: { _service_sidebar: 'TRUE', _service_mobile: 'top_bar' },
      narrow: true,
    });
    expect(app()).not.toBeNull();
    expect((document.body.firstElementChild as HTMLElement).style.height).toBe('48px');
    await run({ shop, globals: { _service_sidebar: 'yes' } });
    expect(document.head.querySelector('script')).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps the last plain click on one of our elements until the app takes over', async () => {
    const html =
      '<a class="serviceReviews" href="/reviews">Reviews</a><a class="servicePopup" href="/shop">Shop</a><a href="/x">x</a>';
    const { app } = await run({ html });
    const ctx = await handOver(app()!);
    const click = (selector: string, init: MouseEventInit = {}) => {
      const event = new MouseEvent('click', { bubbles: true, cancelable: true, ...init });
      document.querySelector(selector)!.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(click('.serviceReviews')).toBe(true);
    expect(click('.servicePopup')).toBe(true);
    expect(ctx.queued).toBe(document.querySelector('.servicePopup'));
    // A click elsewhere, or one that opens a new tab, keeps its meaning.
    expect(click('a[href="/x"]')).toBe(false);
    expect(click('.serviceReviews', { ctrlKey: true })).toBe(false);
    expect(ctx.queued).toBe(document.querySelector('.servicePopup'));
    ctx.queued = null;
    expect(click('.serviceReviews')).toBe(false);
  });

  it('keeps no click when the shop cannot be loaded: the links work as links', async () => {
    await run({ shop: null, html: '<a class="serviceReviews" href="/reviews">Reviews</a>' });
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    document.querySelector('.serviceReviews')!.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });

  it('loads nothing more when the sidebar is off and nothing on the page needs the app', async () => {
    const { urls, app } = await run({ globals: { _service_sidebar: false } });
    expect(app()).toBeNull();
    expect(urls()).toHaveLength(1);
  });

  it.each([
    ['a tooltip class', '<a class="Service" href="#">Reviews</a>'],
    ['the serviceAddReview class', '<button class="serviceAddReview">Write</button>'],
    ['the order-data element', '<script type="application/json" id="service_order_completed">{}</script>'],
  ])('loads the app for %s even with the sidebar off', async (_, html) => {
    const { app } = await run({ globals: { _service_sidebar: false }, html });
    expect(app()).not.toBeNull();
  });

  it('loads the app when a single-page app adds such an element later', async () => {
    const { app } = await run({ globals: { _service_sidebar: false } });
    expect(app()).toBeNull();
    const link = document.createElement('a');
    link.className = 'serviceReviews';
    document.body.append(link);
    await vi.waitFor(() => expect(app()).not.toBeNull());
  });

  it('makes room for the mobile top bar at once, and only on narrow screens in that mode', async () => {
    await run({ narrow: true, html: '<p>page</p>' });
    expect((document.body.firstElementChild as HTMLElement).style.height).toBe('48px');
    await run({ narrow: false, html: '<p>page</p>' });
    expect(document.body.firstElementChild?.tagName).toBe('P');
    await run({ narrow: true, html: '<p>page</p>', globals: { _service_mobile: 'bottom' } });
    expect(document.body.firstElementChild?.tagName).toBe('P');
  });

  it('gives up quietly, with one warning, for an unknown shop', async () => {
    const { warn, app } = await run({ shop: null });
    expect(app()).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  describe('the product block (_service_product, serviceProductReviews)', () => {
    const chunks = () =>
      [...document.head.querySelectorAll<HTMLScriptElement>('script')].map((s) => s.src.split('/').pop());

    it('loads product.js for the element when the page names its product, besides the app', async () => {
      await run({ html: '<div class="serviceProductReviews"></div>', globals: { _service_product: 'SKU-1' } });
      expect(chunks()).toEqual(['product.js', 'app.js']);
      expect(document.head.querySelector<HTMLScriptElement>('script')!.src).toBe(
        'https://reviews.example/embed/assets/v1/product.js',
      );
    });

    it('takes the product from the element itself (several products on one page), without the page global', async () => {
      await run({
        html: '<div class="serviceProductReviews" data-product="A"></div>',
        globals: { _service_sidebar: false },
      });
      expect(chunks()).toEqual(['product.js']);
    });

    it('hands product.js the same context as the app', async () => {
      await run({ html: '<div class="serviceProductReviews" data-product="A"></div>' });
      const ctx = await handOver(document.head.querySelector('script')!);
      expect(ctx).toMatchObject({ base: 'https://reviews.example', id: 42, brand: 'service', shop: SHOP });
    });

    it('loads nothing for the element without a product, nor for a product without the element', async () => {
      await run({ html: '<div class="serviceProductReviews"></div>', globals: { _service_sidebar: false } });
      expect(chunks()).toEqual([]);
      await run({ globals: { _service_sidebar: false, _service_product: 'SKU-1' } });
      expect(chunks()).toEqual([]);
    });

    it('loads it once the element appears (late parsing, single-page apps)', async () => {
      await run({ globals: { _service_sidebar: false, _service_product: 'SKU-1' } });
      const block = document.createElement('div');
      block.className = 'serviceProductReviews';
      document.body.append(block);
      await vi.waitFor(() => expect(chunks()).toEqual(['product.js']));
    });
  });

  it('defines no global names', async () => {
    // (fetch and matchMedia are this test's own stubs.)
    const before = new Set([...Object.keys(window), 'fetch', 'matchMedia']);
    await run();
    expect(Object.keys(window).filter((k) => !before.has(k))).toEqual([]);
  });
});
