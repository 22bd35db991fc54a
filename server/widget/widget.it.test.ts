import { request, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { LAYOUTS } from '../../widget/layouts.js';

let t: TestApp;
let shop: Webshop;
let empty: Webshop;

/** A plain HTTP GET (fetch() decompresses bodies and adds cache headers of its own). */
function get(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((ok, fail) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', fail)
      .end();
  });
}

const widget = (query: Record<string, string>, init?: RequestInit) =>
  t.fetch(`/webshops/widget_html?${new URLSearchParams(query).toString()}`, init);
const page = async (query: Record<string, string>) => {
  const res = await widget({ id: String(shop.id), ...query });
  return { res, html: await res.text() };
};

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({
    name: 'Fiets & Co',
    languages: [
      { name: 'Nederlands', url: 'https://shop.example/', iso: 'nl', all: false, main: true },
      { name: 'English', url: 'https://shop.example/', iso: 'en', all: false, main: false },
    ],
  });
  empty = await t.createShop({ name: 'Empty shop' });
  const reviews = t.services.reviews;
  const day = (n: number) => new Date(Date.UTC(2025, 0, n));
  await reviews.create(shop.id, {
    name: 'Oldest Olga',
    email: 'o@example.com',
    rating: 3,
    language: 'nl',
    comment: 'Oldest review',
    created: day(1),
  });
  const replied = await reviews.create(shop.id, {
    name: 'Replied Rita',
    email: 'r@example.com',
    rating: 5,
    language: 'nl',
    comment: 'Very good',
    created: day(2),
  });
  await reviews.update(replied.id, {
    reply: { text: 'Thank you, Rita!', date: day(3), notify: false, revision: 1, notified: null },
  });
  await reviews.create(shop.id, {
    name: 'Hidden Hank',
    email: 'h@example.com',
    rating: 1,
    language: 'nl',
    comment: 'Quarantined text',
    created: day(4),
    quarantine: true,
  });
  const deleted = await reviews.create(shop.id, {
    name: 'Deleted Dora',
    email: 'd@example.com',
    rating: 1,
    language: 'nl',
    comment: 'Deleted text',
    created: day(5),
  });
  await reviews.softDelete(deleted.id);
  await reviews.create(shop.id, {
    name: '"><img src=x onerror=alert(1)>',
    email: 'x@example.com',
    rating: 4,
    language: 'nl',
    comment: '<script>alert("xss")</script> and "><img src=x onerror=alert(2)>',
    created: day(6),
  });
});
afterAll(() => t.close());

describe('GET /webshops/widget_html', () => {
  it('renders the default layout with documented defaults: a slider of the newest published reviews', async () => {
    const { res, html } = await page({});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toMatch(/^<!doctype html><html lang="nl">/);
    expect(html).toContain('<title>Beoordelingen van Fiets &amp; Co</title>');
    expect(html).toContain('class="w d"');
    expect(html).toContain('data-slider');
    expect(html).toContain('data-interval="5000"');
    expect(html).toContain('.w{height:260px;max-height:100%}');
    // Score out of 10 over published reviews only (3, 5, 4 → mean 4 → 8), stars out of 5.
    expect(html).toContain('<span aria-hidden="true">8</span><span class="sr">8 van de 10</span>');
    expect(html).toContain('aria-label="4 van de 5"');
    expect(html).toContain('3 beoordelingen');
  });

  it('shows published reviews only, newest first, with replies', async () => {
    const { html } = await page({ view: 'list', amount: '6' });
    expect(html).not.toContain('Quarantined text');
    expect(html).not.toContain('Deleted');
    const order = ['onerror=alert(2)', 'Very good', 'Oldest review'].map((s) => html.indexOf(s));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('<b>Reactie van Fiets &amp; Co:</b> Thank you, Rita!');
  });

  it('shows each review’s experience date in the shop’s language (issue 21)', async () => {
    // Reviews without an order date are dated by when the service learned of them (here 1 and 2 January 2025).
    const { html } = await page({ view: 'list', amount: '6' });
    expect(html).toContain('<div class="ex"><time datetime="2025-01-01">Ervaring: januari 2025</time></div>');
    const english = await page({ layout: 'modern', view: 'slider', language: 'eng' });
    expect(english.html).toContain('>Experience: January 2025</time>');
    expect((await page({ layout: 'new_badges' })).html).not.toContain('Ervaring');
  });

  it('limits the reviews to amount', async () => {
    const { html } = await page({ view: 'list', amount: '1' });
    expect(html).toContain('onerror=alert(2)');
    expect(html).not.toContain('Very good');
  });

  it('escapes every review text', async () => {
    const { html } = await page({ view: 'list', amount: '6' });
    expect(html).not.toMatch(/<script>alert/);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('&lt;script>alert(&quot;xss&quot;)&lt;/script>');
    expect(html).toContain('&quot;>&lt;img src=x onerror=alert(1)>');
  });

  it.each(LAYOUTS)(
    'renders %s in both themes, with structured data and a link to the shop page in a new tab',
    async (layout) => {
      for (const theme of ['light', 'dark']) {
        const { res, html } = await page({ layout, theme, color: '#e8590c' });
        expect(res.status).toBe(200);
        expect(html).toContain('itemtype="https://schema.org/AggregateRating"');
        expect(html).toContain('<meta itemprop="bestRating" content="10"/><meta itemprop="worstRating" content="1"/>');
        expect(html).toContain(
          `href="${t.services.config.baseUrl}/webshops/${shop.id}" target="_blank" rel="noopener"`,
        );
        expect(html).toContain('(opent in een nieuw tabblad)');
        if (layout !== 'modern') expect(html).toContain(theme === 'light' ? '--bg:#ffffff' : '--bg:#16191d');
      }
    },
  );

  it('makes each layout visibly what its name says', async () => {
    const marker: Record<string, string> = {
      new_default: 'class="w d"',
      modern: 'class="w m"',
      new_badges: 'class="seal"',
      'new_button-text': '<span class="t">3 beoordelingen</span>',
      'new_button-stars': '<span class="t mu">(3)</span>',
      new_button_logo: '<svg class="lg"',
      'new_button_logo-score': 'class="two"',
      'new_button_logo-sm': '<svg class="lg"',
      new_balloon: 'class="bb"',
    };
    for (const layout of LAYOUTS) expect((await page({ layout })).html, layout).toContain(marker[layout]);
  });

  it('renders an unknown layout as new_default', async () => {
    const { res, html } = await page({ layout: 'new_fancy' });
    expect(res.status).toBe(200);
    expect(html).toContain('class="w d"');
  });

  it('applies show, view, amount and interval to the review layouts only', async () => {
    expect((await page({ show: 'no' })).html).not.toContain('class="rv"');
    expect((await page({ layout: 'modern', view: 'list' })).html).toContain('<ul class="rl"');
    expect((await page({ interval: '9000' })).html).toContain('data-interval="9000"');
    const badge = await page({ layout: 'new_badges', view: 'list', amount: '2' });
    expect(badge.html).not.toContain('class="rv"');
    // modern has its own palette: theme and colour do not apply.
    expect((await page({ layout: 'modern', theme: 'dark' })).html).toBe(
      (await page({ layout: 'modern', theme: 'light' })).html,
    );
  });

  it('sizes the widget from height and a manual pixel width', async () => {
    expect((await page({ height: '300', width: 'manual', width_amount: '320px' })).html).toContain(
      '.w{width:320px;max-width:100%;height:300px;max-height:100%}',
    );
    expect((await page({ width: 'manual', width_amount: '50%' })).html).toContain('.w{height:260px;max-height:100%}');
  });

  it('chooses readable text on the brand colour in both themes', async () => {
    expect((await page({ color: '#ffff00' })).html).toContain('--br:#ffff00;--on:#000000');
    expect((await page({ color: '#000080', theme: 'dark' })).html).toContain('--br:#000080;--on:#ffffff');
    // Yellow is not readable on white: the accent is darkened.
    expect((await page({ color: '#ffff00' })).html).not.toContain('--ac:#ffff00');
  });

  it('uses the requested language when the shop has it enabled, else English', async () => {
    expect((await page({ language: 'eng' })).html).toContain('<html lang="en">');
    const german = await page({ language: 'deu' });
    expect(german.html).toContain('<html lang="en">');
    expect(german.html).toContain('3 reviews');
  });

  it('says so when a shop has no reviews yet, without structured data', async () => {
    const res = await widget({ id: String(empty.id) });
    const html = await res.text();
    expect(html).toContain('No reviews yet');
    expect(html).not.toContain('AggregateRating');
  });

  it('is made to be framed: CSP frame-ancestors * and no X-Frame-Options', async () => {
    const { res, html } = await page({});
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; base-uri 'none'; form-action 'none'; frame-ancestors \*$/,
    );
    expect(res.headers.get('x-frame-options')).toBeNull();
    // The hashes are those of the inline style and script, so nothing else can run.
    const { createHash } = await import('node:crypto');
    const inline = (tag: string) => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html)![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline('style')).digest('base64')}'`);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline('script')).digest('base64')}'`);
  });

  it('only includes the slider script when there is a slider', async () => {
    expect((await page({ view: 'list' })).html).not.toContain('<script');
    const res = await widget({ id: String(shop.id), layout: 'new_badges' });
    expect(await res.text()).not.toContain('<script');
    expect(res.headers.get('content-security-policy')).not.toContain('script-src');
  });
});

describe('widget_html input errors', () => {
  it.each([
    [{ amount: '9' }, 'amount'],
    [{ amount: 'three' }, 'amount'],
    [{ color: 'red;}' }, 'color'],
    [{ height: '-10' }, 'height'],
    [{ theme: 'neon' }, 'theme'],
    [{ show: 'maybe' }, 'show'],
    [{ view: 'carousel' }, 'view'],
    [{ width: 'huge' }, 'width'],
    [{ width: 'manual', width_amount: '12em' }, 'width_amount'],
    [{ interval: '5' }, 'interval'],
    [{ language: 'xx' }, 'language'],
    [{ css: '</style><script>alert(1)</script>' }, 'css'],
    [{ css: 'http://evil.example/x.css' }, 'css'],
    [{ id: 'abc' }, 'id'],
  ])('answers 400 with a small HTML page naming the parameter for %j', async (query, param) => {
    const res = await widget({ id: String(shop.id), ...query });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain(`The parameter ${param} `);
    expect(html.length).toBeLessThan(1000);
    expect(html).not.toContain('<script');
  });

  it('answers 400 without an id, and 404 for an unknown shop', async () => {
    const missing = await t.fetch('/webshops/widget_html?layout=modern');
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('The parameter id is required');
    const unknown = await widget({ id: '987654' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('There is no webshop with id 987654.');
  });

  it('refuses repeated and operator-shaped parameters without a 500', async () => {
    for (const query of [`id=${shop.id}&amount=1&amount=2`, `id[$ne]=1`, `id=${shop.id}&id=${shop.id}`]) {
      const res = await t.fetch(`/webshops/widget_html?${query}`);
      expect(res.status, query).toBe(400);
    }
    // Keys Koa does not parse as objects are unknown parameters, which are ignored.
    for (const query of [`id=${shop.id}&color[$gt]=`, `id=${shop.id}&%E0%A4%A=1`]) {
      expect((await t.fetch(`/webshops/widget_html?${query}`)).status, query).toBe(200);
    }
  });
});

describe('widget_html css parameter (in a frame: see css-frame.it.test.ts)', () => {
  const FRAME = { headers: { 'sec-fetch-dest': 'iframe' } };
  const framed = async (query: Record<string, string>) => {
    const res = await widget({ id: String(shop.id), ...query }, FRAME);
    return { res, html: await res.text() };
  };

  it('places rules in the style element', async () => {
    const { res, html } = await framed({ css: '.sc{border-radius:50%!important}' });
    expect(res.status).toBe(200);
    expect(html).toContain('\n.sc{border-radius:50%!important}</style>');
  });

  it('links an https stylesheet and lets the CSP allow exactly that', async () => {
    const { res, html } = await framed({ css: 'https://cdn.example.com/css/widget.css?v=3' });
    expect(html).toContain('<link rel="stylesheet" href="https://cdn.example.com/css/widget.css?v=3"/>');
    expect(res.headers.get('content-security-policy')).toContain(' https://cdn.example.com/css/widget.css;');
  });

  it('allows https @imports in the CSP', async () => {
    const { res } = await framed({ css: '@import url(https://fonts.example.com/f.css); .w{font-family:F}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(' https://fonts.example.com/f.css;');
  });

  it.each([
    '</style><script>alert(1)</script>',
    '</style><script>alert(1)</script><style>',
    '</STYLE><img src=x onerror=alert(1)>',
    'a{}</style ><svg onload=alert(1)>',
    '<!--',
    'a{background:url(javascript:alert(1))}',
    'a{background:url("j\\61vascript:alert(1)")}',
    'a{width:expression(alert(1))}',
    '@import url(http://evil.example/x.css);',
    '@import "//evil.example/x.css";',
    'a{-moz-binding:url(https://evil.example/x.xml#x)}',
    '"></style><script>alert(1)</script>',
    "'; script-src 'unsafe-inline",
    'https://evil.example/x.css;script-src *',
  ])('leaves no executable markup for %j', async (css) => {
    // A shop without reviews: its page holds nothing but the widget's own markup.
    const res = await widget({ id: String(empty.id), css }, FRAME);
    const html = await res.text();
    expect([200, 400]).toContain(res.status);
    expect(html.match(/<\/style>/g)?.length ?? 0).toBe(1);
    expect(html.match(/<script/g) ?? []).toEqual([]);
    expect(html).not.toMatch(/<img|<svg|onerror|onload|javascript:|expression\(/i);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).not.toMatch(/unsafe|script-src \*|evil/);
  });
});

describe('widget_html caching and compression', () => {
  it('sends an ETag and a short Cache-Control, and answers 304 to a matching If-None-Match', async () => {
    const first = await widget({ id: String(shop.id), layout: 'new_badges' });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=120');
    // As a browser revalidates (fetch() would add Cache-Control: no-cache, which forbids a 304).
    const again = await get(`${t.url}/webshops/widget_html?id=${shop.id}&layout=new_badges`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('compresses with brotli or gzip as the client accepts, varying on Accept-Encoding', async () => {
    const url = `${t.url}/webshops/widget_html?id=${shop.id}`;
    const plain = await get(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((await get(url, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
  });

  it('shows a new review at once: the shop’s cached pages are dropped when its reviews change', async () => {
    const other = await t.createShop({ name: 'Cache shop' });
    const before = await (await widget({ id: String(other.id) })).text();
    expect(before).toContain('No reviews yet');
    expect(await (await widget({ id: String(other.id) })).text()).toBe(before);
    await t.services.reviews.create(other.id, {
      name: 'Newest Nina',
      email: 'n@example.com',
      rating: 5,
      language: 'en',
      comment: 'Fresh',
    });
    const after = await (await widget({ id: String(other.id) })).text();
    expect(after).toContain('Newest Nina');
    expect(after).toContain('1 review');
  });
});
