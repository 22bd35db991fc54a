// The `css` parameter styles the widget inside a merchant's iframe. Opened as a page of its own (a crafted
// widget_html link sent to people), the service's origin would show whatever the rules or stylesheet say under the
// shop's name: so `css` applies only when the browser loads the page as a frame (Sec-Fetch-Dest), and inline rules
// lose `content` text everywhere.
import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Frame shop' });
});
afterAll(() => t.close());

/** A plain GET with exactly these headers (fetch() sets Sec-Fetch-* of its own). */
function get(query: Record<string, string>, headers: Record<string, string> = {}) {
  const path = `/webshops/widget_html?${new URLSearchParams({ id: String(shop.id), ...query }).toString()}`;
  return new Promise<{ status: number; headers: IncomingHttpHeaders; html: string }>((ok, fail) => {
    request(`${t.url}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
      let html = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (html += chunk));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, html }));
    })
      .on('error', fail)
      .end();
  });
}

const FRAME = { 'sec-fetch-dest': 'iframe' };
const RULE = '.sc{border-radius:50%!important}';
const SHEET = 'https://cdn.example.com/css/widget.css';

describe('widget_html css outside a frame', () => {
  it.each([
    ['no Sec-Fetch-Dest', {}],
    ['Sec-Fetch-Dest: document', { 'sec-fetch-dest': 'document' }],
    ['Sec-Fetch-Dest: empty', { 'sec-fetch-dest': 'empty' }],
  ])('is not applied with %s (the page still renders)', async (_name, headers) => {
    const rules = await get({ css: RULE }, headers);
    expect(rules.status).toBe(200);
    expect(rules.html).toContain('Frame shop');
    expect(rules.html).not.toContain(RULE);
    const sheet = await get({ css: SHEET }, headers);
    expect(sheet.status).toBe(200);
    expect(sheet.html).not.toContain(SHEET);
    expect(sheet.headers['content-security-policy']).not.toContain('cdn.example.com');
  });

  it('is applied in a frame', async () => {
    const rules = await get({ css: RULE }, FRAME);
    expect(rules.html).toContain(`\n${RULE}</style>`);
    const sheet = await get({ css: SHEET }, { 'sec-fetch-dest': 'frame' });
    expect(sheet.html).toContain(`<link rel="stylesheet" href="${SHEET}"/>`);
    expect(sheet.headers['content-security-policy']).toContain(` ${SHEET};`);
  });

  it('is not served from the cache of the other kind of request, and shared caches are told it varies', async () => {
    const css = '.w{outline:1px solid red}';
    const framed = await get({ css, layout: 'new_badges' }, FRAME);
    const top = await get({ css, layout: 'new_badges' }, { 'sec-fetch-dest': 'document' });
    const framedAgain = await get({ css, layout: 'new_badges' }, FRAME);
    expect(framed.html).toContain(css);
    expect(top.html).not.toContain(css);
    expect(framedAgain.html).toContain(css);
    expect(top.headers.etag).not.toBe(framed.headers.etag);
    for (const res of [framed, top]) expect(res.headers.vary).toMatch(/Sec-Fetch-Dest/i);
    // A page without css is the same everywhere: one cache entry, no Vary on Sec-Fetch-Dest.
    expect((await get({ layout: 'new_badges' })).headers.vary).not.toMatch(/Sec-Fetch-Dest/i);
  });

  it('still refuses an invalid css value with the 400 page', async () => {
    const res = await get({ css: 'http://evil.example/x.css' });
    expect(res.status).toBe(400);
    expect(res.html).toContain('The parameter css ');
  });
});

describe('widget_html css content', () => {
  it('drops content text from the rules and renders the page (never a 400)', async () => {
    const res = await get(
      { css: '.w::before{content:"Call 0800 for a refund";color:red} .sc::after{content:""}' },
      FRAME,
    );
    expect(res.status).toBe(200);
    expect(res.html).not.toContain('Call 0800');
    expect(res.html).toContain('\n.w::before{;color:red} .sc::after{content:""}</style>');
  });
});
