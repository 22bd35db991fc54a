// @vitest-environment happy-dom
// The product block in a page (block.ts), with the server's answers stubbed: what it asks for, what it puts in its
// shadow root and in the page's <head>, and how it pages, filters and votes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmbedContext } from '../shared/context.js';
import { startProductBlocks } from './block.js';

const ctx = {
  base: 'https://reviews.example',
  id: 42,
  brand: 'service',
  brandClass: 'Service',
  brandName: 'Service',
  shop: { language: 'nl', settings: { theme: 'light' } },
} as unknown as EmbedContext;

const fragment = (page: number, count = 12) =>
  count === 0
    ? '<style>.pr{color:red}</style><section class="pr pr--empty" data-count="0"><h2>Reviews</h2></section>'
    : `<style>.pr{color:red}</style><section class="pr" aria-label="Reviews of Commuter 8" data-count="${count}" data-average="4.3" data-pages="3" data-page="${page}">` +
      `<p>page ${page}</p>` +
      '<p><button type="button" data-helpful="77" aria-pressed="false">Helpful (3)</button></p>' +
      '<a href="?page=2" data-query="page=2&amp;sort=newest">Next</a>' +
      '<form data-product-filter method="get"><input name="stars" value="1,2"><button>Filter</button></form></section>';
const LD = '{"@context":"https://schema.org","@type":"Product","name":"\\u003c/script\\u003e"}';

let requests: { url: string; init?: RequestInit }[] = [];
function serve(count: number, { ld = 200 }: { ld?: number } = {}) {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ url, init });
      if (url.includes('/products/jsonld')) return new Response(ld === 200 ? LD : '{}', { status: ld });
      if (url.includes('/helpful')) return Response.json({ counted: true, helpful: 4, text: '4 people' });
      const page = Number(new URL(url).searchParams.get('page') ?? 1);
      return new Response(fragment(page, count), { headers: { 'content-type': 'text/html' } });
    }),
  );
}

const root = (el = document.querySelector('.serviceProductReviews')!) => el.shadowRoot!;
const scope = window as unknown as Record<string, unknown>;

beforeEach(() => {
  document.head.innerHTML = '';
  document.documentElement.lang = 'en';
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  delete scope._service_product;
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the product block', () => {
  it("fills the element in a shadow root with the product's fragment, in the shop's theme, reserving its height", async () => {
    serve(12);
    scope._service_product = 'SKU-1';
    document.body.innerHTML = '<div class="serviceProductReviews"></div>';
    await startProductBlocks(ctx);
    expect(requests[0]!.url).toBe(
      'https://reviews.example/webshops/42/products/reviews.html?product=SKU-1&lang=nl&theme=light',
    );
    expect(root().querySelector('section.pr')?.getAttribute('data-count')).toBe('12');
    // In the block's language, which is the shop's here, not the page's.
    expect(root().querySelector('section.pr')?.closest('[lang]')?.getAttribute('lang')).toBe('nl');
    // The fragment's style is adopted, not left inline.
    expect(root().querySelector('style')).toBeNull();
    const host = document.querySelector<HTMLElement>('.serviceProductReviews')!;
    expect(host.style.minHeight).toMatch(/^var\(--service-product-reviews-min-height, ?32rem\)$/);
    expect(host.hasAttribute('data-empty')).toBe(false);
  });

  it('adds the JSON-LD to <head> once, as text, even with two blocks of the product and a second run', async () => {
    serve(12);
    scope._service_product = 'SKU-1';
    document.body.innerHTML =
      '<div class="serviceProductReviews"></div><div class="serviceProductReviews" data-product="SKU-1"></div>';
    await startProductBlocks(ctx);
    await startProductBlocks(ctx);
    const scripts = document.head.querySelectorAll('script[type="application/ld+json"]');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.textContent).toBe(LD);
    expect(scripts[0]!.getAttribute('data-service-jsonld')).toBe('SKU-1');
    expect(requests.filter((r) => r.url.includes('/jsonld'))).toHaveLength(1);
  });

  it('adds no JSON-LD for a page of several products, nor for one that opts out', async () => {
    serve(12);
    document.body.innerHTML =
      '<div class="serviceProductReviews" data-product="A"></div><div class="serviceProductReviews" data-product="B"></div>';
    await startProductBlocks(ctx);
    document.body.innerHTML = '<div class="serviceProductReviews" data-product="C" data-jsonld="false"></div>';
    await startProductBlocks(ctx);
    expect(requests.filter((r) => r.url.includes('/jsonld'))).toHaveLength(0);
    expect(document.head.querySelector('script')).toBeNull();
  });

  it('marks an empty block for the shop to hide, and asks for no JSON-LD', async () => {
    serve(0);
    document.body.innerHTML = '<div class="serviceProductReviews" data-product="NEW"></div>';
    await startProductBlocks(ctx);
    const host = document.querySelector<HTMLElement>('.serviceProductReviews')!;
    expect(host.hasAttribute('data-empty')).toBe(true);
    expect(host.style.minHeight).toBe('');
    expect(requests.map((r) => r.url).filter((u) => u.includes('/jsonld'))).toEqual([]);
  });

  it('pages with the link of the fragment, keeping product, language and theme, then focuses and announces', async () => {
    serve(12);
    document.body.innerHTML = '<div class="serviceProductReviews" data-product="A" data-theme="dark"></div>';
    await startProductBlocks(ctx);
    root().querySelector<HTMLAnchorElement>('a[data-query]')!.click();
    await vi.waitFor(() => expect(root().querySelector('section')?.getAttribute('data-page')).toBe('2'));
    expect(requests.at(-1)!.url).toContain('?product=A&lang=nl&theme=dark&page=2&sort=newest');
    await vi.waitFor(() =>
      expect(root().querySelector('[role=status]')?.textContent).toBe('Reviews of Commuter 8. Pagina 2 van 3'),
    );
    // (The server's fragment has no heading: the section, named by its label, takes the focus.)
    expect(root().activeElement?.tagName).toBe('SECTION');
  });

  it('filters with the form fields', async () => {
    serve(12);
    document.body.innerHTML = '<div class="serviceProductReviews" data-product="A"></div>';
    await startProductBlocks(ctx);
    root()
      .querySelector('form')!
      .dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(requests.at(-1)!.url).toContain('&stars=1%2C2'));
  });

  it('votes "helpful" once per browser, and shows the vote', async () => {
    serve(12);
    document.body.innerHTML = '<div class="serviceProductReviews" data-product="A"></div>';
    await startProductBlocks(ctx);
    const button = () => root().querySelector<HTMLButtonElement>('button[data-helpful]')!;
    button().click();
    await vi.waitFor(() => expect(button().getAttribute('aria-pressed')).toBe('true'));
    const vote = requests.find((r) => r.url.endsWith('/reviews/77/helpful'))!;
    expect(vote.init?.method).toBe('POST');
    expect(String(vote.init?.body)).toBe('lang=nl');
    expect(button().textContent).toBe('Helpful (4)');
    expect(localStorage.getItem('_service_helpful')).toBe('77');
    button().click();
    await new Promise((ok) => setTimeout(ok, 20));
    expect(requests.filter((r) => r.url.includes('/helpful'))).toHaveLength(1);
  });
});
