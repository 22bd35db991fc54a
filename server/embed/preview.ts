// The page of GET /webshops/{id}/sidebar-preview?_<brand>_sidebar_position=right&… (routes.ts): a sample shop page running the shop's real
// sidebar, tooltip and pop-ups (sidebar.js, as the shop's snippet loads it) with the settings given as page globals,
// exactly as a shop writes them before the snippet. The dashboard's Widget page frames it as its live preview of
// settings not saved yet. Public, like the sidebar on any shop page: it shows what the shop's visitors see.
// Only the eight settings of embed/shared/settings.ts are read, each checked by that table's pattern; anything else
// in the query is ignored, so what is written into the page's one inline script is a few known names and values.
import type { Config } from '../config.js';
import { cspHash, escapeHtml } from '../http/html.js';
import { mainLanguage } from '../webshops/rules.js';
import type { Webshop } from '../webshops/model.js';
import { brandClass } from '../../embed/shared/brand.js';
import { coerce, TABLE } from '../../embed/shared/settings.js';
import { snippetJs } from './demo.js';

/** The valid settings among the query's page globals, as `window.<name> = <value>;` lines. */
function previewGlobals(query: URLSearchParams, brand: string): string {
  const lines: string[] = [];
  for (const [suffix, , pattern] of TABLE) {
    const name = `_${brand}_${suffix}`;
    const raw = query.get(name);
    if (raw === null) continue;
    const value = coerce(pattern, raw);
    // Valid values are booleans or short strings of letters, digits, `.`, `_` and `%`: JSON of them is safe here.
    if (value !== undefined) lines.push(`window.${name} = ${JSON.stringify(value)};`);
  }
  return lines.join('\n');
}

// A plain page in the shape of a shop's: what the sidebar is placed over. No fonts or images to fetch. The page is in
// the shop's main language (what `language: html` reads, as on the shop's own pages); its sample text is English
// and says so.
const STYLE = `html { font-family: system-ui, sans-serif; color: #1f2328; background: #fafafa; line-height: 1.5; }
body { margin: 0; }
header { display: flex; align-items: center; min-height: 56px; padding: 0 24px; background: #24292f; color: #fff; }
main { max-width: 960px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.5rem; margin: 8px 0; }
.products { list-style: none; margin: 16px 0 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 16px; }
.products li { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px; }
.photo { height: 110px; border-radius: 6px; background: linear-gradient(135deg, #d0d7de, #8c959f); }
.products h2 { font-size: 1rem; margin: 8px 0 0; }
a { color: #0550ae; }`;

function previewPage(options: { lang: string; brand: string; shopName: string; script: string }): string {
  const { lang, brand, shopName, script } = options;
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(shopName)}: sidebar preview</title>
<style>${STYLE}</style>
<script>${script}</script>
</head>
<body>
<header><strong>${escapeHtml(shopName)}</strong></header>
<main lang="en">
<h1>Sample page</h1>
<p><a class="${brandClass(brand)}" href="#reviews">Rated by our customers</a></p>
<ul class="products">
<li><div class="photo"></div><h2>Product one</h2></li>
<li><div class="photo"></div><h2>Product two</h2></li>
<li><div class="photo"></div><h2>Product three</h2></li>
</ul>
</main>
</body>
</html>`;
}

/**
 * The preview page of a shop with the settings of `query`, and the Content-Security-Policy it needs: the service's
 * scripts and calls, its one inline script and style by hash, framed by our own pages only.
 */
export function sidebarPreview(
  config: Pick<Config, 'baseUrl' | 'brand'>,
  shop: Pick<Webshop, 'id' | 'name' | 'languages'>,
  query: URLSearchParams,
): { html: string; csp: string } {
  const script = `${previewGlobals(query, config.brand)}\n${snippetJs({ service: config.baseUrl, shopId: shop.id, brand: config.brand, query })}`;
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${config.baseUrl} ${cspHash(script)}`,
    `connect-src 'self' ${config.baseUrl}`,
    `style-src 'self' ${config.baseUrl} ${cspHash(STYLE)}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    // Framed by the dashboard (same origin) only.
    "frame-ancestors 'self'",
  ].join('; ');
  return { html: previewPage({ lang: mainLanguage(shop), brand: config.brand, shopName: shop.name, script }), csp };
}
