// Demo shop pages for the embeds (e2e/hosts/*.html): the end-to-end tests serve them from another site
// (127.0.0.2, see e2e/hosts/server.ts), and outside production the service serves them at /demo/ so a newcomer can
// see the sidebar, tooltips and pop-ups at once: for the demo shop only and to this machine only, since the page
// signs order data with the shop's code and runs on the service's own origin. Query parameters shape a page:
//   _service_*=value    sets that page global before the snippet (`true`/`false` become booleans)
//   shape=typed|untyped|escaped|strings|signed|badsig    prints the order-data element as plugins do
//   order=, email=, name=, delay=    the order it describes;  htmllang=    the page's <html lang>;  embed=0    no snippet
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { orderSignature } from '../consents/signature.js';
import { projectRoot } from '../root.js';
import { brandClass } from '../../embed/shared/brand.js';

export const HOST_PAGES_DIR = join(projectRoot(), 'e2e', 'hosts');

export interface HostContext {
  /** Where the service is, as the shop's snippet names it. */
  service: string;
  shopId: number;
  /** Only needed to sign the order data (`shape=signed`), as the shop's plugin would. */
  apiCode?: string;
  brand: string;
  query: URLSearchParams;
}

const html = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/**
 * JSON that is safe inside an inline <script>, executed or not: no `<` can end the element or open a comment, and
 * no line separator can end a string in older engines. JSON.parse reads the escapes back as the same characters.
 */
const scriptJson = (value: unknown, indent?: number) =>
  JSON.stringify(value, null, indent).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** The page globals from the query, as a shop would write them before the snippet. */
export function globalsJs(ctx: HostContext): string {
  const lines: string[] = [];
  for (const [name, raw] of ctx.query) {
    if (!name.startsWith(`_${ctx.brand}_`) || !/^\w+$/.test(name)) continue;
    const value = raw === 'true' ? true : raw === 'false' ? false : raw;
    lines.push(`window.${name} = ${scriptJson(value)};`);
  }
  return lines.join('\n');
}

/** The spec's snippet: the loader inserted asynchronously before the first script, with the 10-minute cache-buster. */
export function snippetJs(ctx: HostContext): string {
  return `(function () {
  var id = ${ctx.shopId};
  var s = document.createElement('script');
  s.async = true;
  s.src = ${scriptJson(ctx.service)} + '/sidebar.js?id=' + id + '&c=' + Math.floor((Date.now() + Math.sin(id) * 600000) / 600000);
  var first = document.getElementsByTagName('script')[0];
  first.parentNode.insertBefore(s, first);
})();`;
}

/** The order-data element in the shape a given plugin prints. */
function orderElement(ctx: HostContext): string {
  const shape = ctx.query.get('shape');
  if (!shape) return '';
  const q = ctx.query;
  const fields: Record<string, string | number> = {
    webshopId: ctx.shopId,
    orderNumber: q.get('order') ?? `D-${randomBytes(4).toString('hex')}`,
  };
  if (q.get('email') !== '') fields.email = q.get('email') ?? 'jane@example.com';
  if (q.get('name') !== '') fields.firstName = q.get('name') ?? 'Jane';
  fields.inviteDelay = Number(q.get('delay') ?? 3);
  const id = `${ctx.brand}_order_completed`;
  switch (shape) {
    case 'untyped':
      return `<script id="${id}">${scriptJson(fields)}</script>`;
    case 'escaped':
      return `<script type="application/json" id="${id}">${html(JSON.stringify(fields))}</script>`;
    case 'strings':
      return `<script type="application/json" id="${id}">${scriptJson({
        ...fields,
        webshopId: String(fields.webshopId),
        inviteDelay: String(fields.inviteDelay),
      })}</script>`;
    case 'signed':
    case 'badsig': {
      const signature =
        shape === 'signed' && ctx.apiCode ? orderSignature(fields, ctx.shopId, ctx.apiCode) : 'ab'.repeat(64);
      return `<script type="application/json" id="${id}">\n${scriptJson({ ...fields, signature }, 2)}\n</script>`;
    }
    default:
      return `<script type="application/json" id="${id}">\n${scriptJson(fields, 2)}\n</script>`;
  }
}

/** A host page with its placeholders filled, or undefined when there is no such page. */
export function renderHostPage(name: string, ctx: HostContext): string | undefined {
  if (!/^[a-z0-9-]+\.html$/.test(name) || !existsSync(join(HOST_PAGES_DIR, name))) return undefined;
  const embed = ctx.query.get('embed') !== '0';
  const vars: Record<string, string> = {
    GLOBALS: embed ? `<script>\n${globalsJs(ctx)}\n</script>` : '',
    SNIPPET: embed ? `<script>\n${snippetJs(ctx)}\n</script>` : '',
    ORDER_ELEMENT: orderElement(ctx),
    HTML_LANG: html(ctx.query.get('htmllang') ?? 'en'),
    SERVICE: html(ctx.service),
    SHOP: String(ctx.shopId),
    QUERY: html(ctx.query.toString()),
    BRAND: ctx.brand,
    BRAND_CLASS: brandClass(ctx.brand),
  };
  return readFileSync(join(HOST_PAGES_DIR, name), 'utf8').replace(
    /\{\{([A-Z_]+)\}\}/g,
    (whole, key: string) => vars[key] ?? whole,
  );
}

/** The Content-Security-Policy of the strict-CSP page: exactly what README tells shops to allow for us. */
export function strictCsp(service: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${service}`,
    `connect-src ${service}`,
    "style-src 'self'",
    // Review photos in the reviews pop-up and the product block load from the service (docs/embedding.md).
    `img-src 'self' ${service}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
