import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Preview <Shop>' });
});
afterAll(() => t.close());

const preview = (query: string, id: number | string = shop.id) =>
  t.fetch(`/webshops/${id}/sidebar-preview${query ? `?${query}` : ''}`);
const inlineScript = (html: string) => /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;

it('runs the real sidebar with the valid settings of the query as page globals, framed by our own pages only', async () => {
  const brand = t.services.config.brand;
  const res = await preview(
    `_${brand}_sidebar_position=right&_${brand}_sidebar_top=40%25&_${brand}_tooltip=false&_${brand}_sidebar_theme=purple` +
      `&_${brand}_language=${encodeURIComponent('</script><script>alert(1)</script>')}&_${brand}_other=1&order=123`,
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await res.text();
  const script = inlineScript(html);
  // The valid ones, as a shop writes them; an invalid value and unknown names are left out.
  expect(script).toContain(`window._${brand}_sidebar_position = "right";`);
  expect(script).toContain(`window._${brand}_sidebar_top = "40%";`);
  expect(script).toContain(`window._${brand}_tooltip = false;`);
  expect(script).not.toContain('sidebar_theme');
  expect(script).not.toContain('alert');
  expect(script).not.toContain('_other');
  // The shop's snippet, loading sidebar.js from the service with the shop's id.
  expect(script).toContain(`'/sidebar.js?id=' + id`);
  expect(script).toContain(`var id = ${shop.id};`);
  expect(html).toContain('Preview &#60;Shop&#62;');
  expect(html).not.toContain('<Shop>');
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("frame-ancestors 'self'");
  expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  expect(csp).not.toContain('unsafe-inline');
  expect(res.headers.get('cache-control')).toBe('no-store');
});

it('answers 404 as a small HTML page for a shop that does not exist, and never a 500 for an id that is not one', async () => {
  const res = await preview('', 999_999);
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect((await preview('', 'abc')).status).toBe(404);
});
