// @vitest-environment happy-dom
// @vitest-environment-options {"settings":{"handleDisabledFileLoadingAsSuccess":true}}
// Runs the built loader (dist/embed/sidebar.js, filled in as the server serves it) on a page, with the script's own
// element, fetch and the viewport stubbed: what it reads, what it requests, and when it loads the app.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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

async function run({ src = 'https://reviews.example/sidebar.js?id=42&c=2892888', html = '', globals = {}, shop = SHOP, narrow = false }: Run = {}) {
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
  const app = () => document.head.querySelector<HTMLScriptElement>('script');
  return { fetch, warn, app, urls: () => fetch.mock.calls.map(([url]) => url) };
}

/** What the loader hands to the app once the app's script has announced itself. */
async function handOver(app: HTMLScriptElement): Promise<EmbedContext> {
  return new Promise((ok) => app.dispatchEvent(new CustomEvent('mount', { detail: ok })));
}

afterEach(() => {
  for (const name of Object.keys(scope).filter((k) => k.startsWith('_service_'))) delete scope[name];
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('sidebar.js', () => {
  it("takes its base URL and the shop id from its own src, fetches the shop, and loads the app and one language's strings", async () => {
    const { urls, app } = await run({ globals: { _service_language: 'deu' } });
    expect(app()?.src).toBe('https://reviews.example/embed/assets/v1/app.js');
    expect(urls()).toEqual(['https://reviews.example/embed/42/shop.json', 'https://reviews.example/embed/assets/v1/strings/de.json']);
  });

  it('works from a path prefix and keeps the page scheme of its src', async () => {
    const { urls } = await run({ src: 'https://host.example/reviews/sidebar.js?id=42&c=x&utm=1' });
    expect(urls()[0]).toBe('https://host.example/reviews/embed/42/shop.json');
  });

  it('merges the globals over the dashboard configuration and passes the language it detected', async () => {
    const shop = { ...SHOP, settings: { theme: 'light', position: 'right', tooltip: false } };
    const { app } = await run({ shop, globals: { _service_sidebar_position: 'left', _service_language: 'html' }, html: '' });
    const ctx = await handOver(app()!);
    expect(ctx).toMatchObject({ base: 'https://reviews.example', id: 42, brand: 'service', brandName: 'Service', lang: 'nl' });
    expect(ctx.settings).toMatchObject({ theme: 'light', position: 'left', tooltip: false, sidebar: true, top: '300' });
    expect(await ctx.strings).toEqual({ close: 'Close' });
  });

  it('warns once per invalid global and carries on with the default', async () => {
    const { warn, app } = await run({ globals: { _service_sidebar_theme: 'purple', _service_mobile: 'sideways' } });
    expect(warn).toHaveBeenCalledTimes(2);
    expect((await handOver(app()!)).settings).toMatchObject({ theme: 'dark', mobile: 'top_bar' });
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

  it('defines no global names', async () => {
    // (fetch and matchMedia are this test's own stubs.)
    const before = new Set([...Object.keys(window), 'fetch', 'matchMedia']);
    await run();
    expect(Object.keys(window).filter((k) => !before.has(k))).toEqual([]);
  });
});
