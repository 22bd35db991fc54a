// The widget's product layout (issue 22): `widget_html?id=…&layout=product&product=…` shows one product's reviews in
// an iframe, for shops that prefer one to the loader's in-page block. The same section as the fragment, in a page of
// its own; the shopper's sort, filter and paging navigate the frame (no script). It carries no JSON-LD for the host
// page: structured data inside a frame belongs to the frame's address (the configurator says so).
import { z } from 'zod';
import { renderDocument } from '../../widget/page.js';
import { cspHash } from '../http/html.js';
import { normalizeLanguage, type Language } from '../languages.js';
import { readListing } from '../pages/listing.js';
import type { Services } from '../services.js';
import { FRAGMENT_CSS, renderSection, THEMES } from './fragment.js';
import { PRODUCT_STRINGS } from './strings.js';
import { productView } from './view.js';

export const PRODUCT_LAYOUT = 'product';

const query = z.object({
  product: z.string({ error: 'is required (the product id, SKU or GTIN)' }).trim().min(1, 'is required').max(200),
  theme: z.enum(THEMES, { error: 'must be light or dark' }).default('light'),
  language: z
    .string()
    .transform((v, ctx) => {
      const language = normalizeLanguage(v);
      if (language) return language;
      ctx.addIssue({ code: 'custom', message: 'must be one of nld, eng, deu, fra, spa, ita, hrv' });
      return z.NEVER;
    })
    .optional(),
  page: z
    .string()
    .regex(/^\d{1,6}$/, 'must be a page number')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a page number'))
    .default(1),
});

export type ProductWidgetQuery = z.infer<typeof query>;

/** The layout's own parameters; `{param, problem}` for the 400 page when one does not fit. */
export function parseProductWidgetQuery(
  raw: Record<string, string | string[] | undefined>,
): { ok: true; value: ProductWidgetQuery } | { ok: false; param: string; problem: string } {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const parsed = query.safeParse({
    product: one(raw.product),
    theme: one(raw.theme) || undefined,
    language: one(raw.language) || undefined,
    page: one(raw.page) || undefined,
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, param: String(issue.path[0] ?? 'query'), problem: issue.message };
}

/** The page and the Content Security Policy that allows exactly it: its styles, its photos, its own form. */
export async function productWidgetPage(
  services: Pick<Services, 'config' | 'helpful' | 'products'>,
  shop: { id: number; name: string; enabledLanguages: Language[]; mainLanguage: Language },
  q: ProductWidgetQuery,
  raw: Record<string, string | string[] | undefined>,
): Promise<{ html: string; csp: string }> {
  const requested = q.language ?? shop.mainLanguage;
  // As the other layouts: a language the shop has not enabled is shown in English.
  const lang: Language = shop.enabledLanguages.includes(requested) ? requested : 'en';
  const base = services.config.baseUrl;
  const action = `${base}/webshops/widget_html`;
  const fixed = { id: String(shop.id), layout: PRODUCT_LAYOUT, product: q.product, language: lang, theme: q.theme };
  const self = `${action}?${new URLSearchParams(fixed).toString()}`;
  const view = await productView(services, {
    shop,
    product: q.product,
    lang,
    theme: q.theme,
    page: q.page,
    listing: readListing(raw),
    nav: { action, fixed, href: (listing) => (listing ? `${self}&${listing}` : self) },
    votes: 'text',
  });
  const pageCss = `body{margin:0;background:${q.theme === 'dark' ? '#0d1117' : '#fff'}}`;
  const html = renderDocument({
    language: lang,
    title: PRODUCT_STRINGS[lang].label(view.product?.info.name ?? ''),
    css: pageCss,
    stylesheets: [],
    body: <main dangerouslySetInnerHTML={{ __html: `<style>${FRAGMENT_CSS}</style>${renderSection(view)}` }} />,
  });
  const origin = new URL(base).origin;
  const csp =
    `default-src 'none'; style-src ${cspHash(pageCss)} ${cspHash(FRAGMENT_CSS)}; img-src 'self' ${origin}; ` +
    `base-uri 'none'; form-action 'self' ${origin}; frame-ancestors *`;
  return { html, csp };
}
