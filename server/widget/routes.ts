// The widget's public endpoints (no credentials; spec section "Widget", compatibility "Rich snippet"):
// - GET /webshops/widget_html: the iframe page, cached per shop and parameter set;
// - GET /webshops/widget: the configurator where a merchant composes the iframe snippet;
// - GET /webshops/rich_snippet: `{"result":"ok","content":"<html>"}` for shop plugins.
// They answer HTML pages (or the rich snippet's JSON), never the JSON error envelope.
import { createHash, randomUUID } from 'node:crypto';
import type { RichSnippet } from './openapi.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { findWebshop } from '../webshops/service.js';
import { enabledLanguages, mainLanguage } from '../webshops/rules.js';
import { normalizeLanguage, type Language, LANGUAGES } from '../languages.js';
import { parseId } from '../http/credentials.js';
import { policyPageUrl, publicPageUrl } from '../links.js';
import { redactUrl } from '../log.js';
import { renderWidgetPage, type WidgetOptions } from '../../widget/page.js';
import { renderErrorPage } from '../../widget/error-page.js';
import { renderConfigurator } from '../../widget/configurator.js';
import { renderRichSnippet } from '../../widget/rich-snippet.js';
import { localeFor } from '../../widget/strings.js';
import type { WidgetData } from '../../widget/components.js';
import { preparePage, sendPage } from './http.js';
import { PRODUCT_LAYOUT, parseProductWidgetQuery, productWidgetPage } from '../products/widget.js';
import {
  optionsKey,
  parseWidgetQuery,
  widgetOptions,
  WidgetParamError,
  type ShopDefaults,
  type WidgetQuery,
} from './params.js';

/** Browsers and proxies may keep a widget page this long; the server's own cache follows review changes at once. */
const WIDGET_CACHE_CONTROL = 'public, max-age=120';

/**
 * Whether the browser loads the page as a frame (a merchant's iframe). Only then does the `css` parameter apply:
 * opened on its own, a crafted widget_html link would show the rules' or stylesheet's text on the service's
 * origin under the shop's name. Browsers that send no Sec-Fetch-Dest show the widget in its own style.
 */
function loadedAsFrame(ctx: Context): boolean {
  const dest = ctx.get('sec-fetch-dest');
  return dest === 'iframe' || dest === 'frame';
}

function shopDefaults(shop: Webshop): ShopDefaults {
  return { heroColor: shop.hero_color, mainLanguage: mainLanguage(shop), enabledLanguages: enabledLanguages(shop) };
}

export function registerWidgetRoutes(
  router: Router,
  services: Pick<
    Services,
    'config' | 'helpful' | 'log' | 'products' | 'ratings' | 'webshops' | 'widgetPages' | 'widgetQueries'
  >,
): void {
  const { ratings, config, log } = services;
  // Built in app.ts, which also drops a shop's pages when its public reviews change.
  const pages = services.widgetPages;
  const known = services.widgetQueries;

  async function widgetData(shop: Webshop, options: WidgetOptions): Promise<WidgetData> {
    const listsReviews = (options.layout === 'new_default' || options.layout === 'modern') && options.show;
    const [summary, latest] = await Promise.all([
      ratings.summary(shop.id),
      listsReviews ? ratings.latestPublished(shop.id, options.amount) : Promise.resolve([]),
    ]);
    return {
      shopName: shop.name,
      pageUrl: publicPageUrl(config.baseUrl, shop.id),
      policyUrl: policyPageUrl(config.baseUrl, shop.id, options.language),
      serviceUrl: config.baseUrl,
      brandName: config.brandName,
      score: summary.rating_average,
      count: summary.amount,
      reviews: latest.map((r) => ({
        id: r.id,
        name: r.name,
        rating: r.rating,
        comment: r.comment,
        date: r.created,
        reply: r.reply,
        origin: r.origin,
        incentivised: r.incentivised,
        importedFrom: r.imported_from,
        experienceDate: r.experience_date,
        ...(options.photos ? { photos: r.photos.map((p) => ({ thumb: p.thumb_url, alt: p.alt })) } : {}),
      })),
    };
  }

  async function sendErrorPage(ctx: Context, status: number, title: string, message: string): Promise<void> {
    const { html, csp } = renderErrorPage(title, message);
    sendPage(ctx, await preparePage(html, csp), { status, cacheControl: 'no-store' });
  }

  /** Unexpected failures become a small HTML page too (the iframe would otherwise show JSON). */
  async function htmlPage(ctx: Context, handle: () => Promise<void>): Promise<void> {
    ctx.state.envelope = { style: 'admin' };
    try {
      await handle();
    } catch (err) {
      if (err instanceof WidgetParamError) {
        await sendErrorPage(ctx, 400, 'Invalid widget parameter', `The parameter ${err.param} ${err.problem}.`);
        return;
      }
      const errorId = randomUUID();
      log.error({ err, errorId, url: redactUrl(ctx.url) }, 'widget page failed');
      ctx.set('X-Error-Id', errorId);
      await sendErrorPage(
        ctx,
        500,
        'Reviews unavailable',
        `The reviews cannot be shown right now (error id ${errorId}).`,
      );
    }
  }

  // The same embed asks with the same query string again and again: its validated options and page key are kept
  // (`known`), for as long as the shop is unchanged, so a cached page is served without validating the query again.
  const KNOWN_QUERY_MAX = 1024;

  /**
   * The shopper's sort and star filter, never the shop's (issue 20: a shop cannot make its widget show only good
   * scores). The frame's own form and links navigate inside the frame, same-origin; a shop's page that frames
   * `…&stars=5` loads it cross-site, so there they are left out and the frame starts at newest, every score.
   */
  function shopperListing(ctx: Context): Record<string, string | string[] | undefined> {
    if (ctx.get('Sec-Fetch-Site') === 'same-origin') return ctx.query;
    const { sort: _sort, stars: _stars, photos: _photos, ...rest } = ctx.query;
    return rest;
  }

  /** layout=product (server/products/widget.tsx): one product's reviews, rendered per request like the fragment. */
  async function productPage(ctx: Context): Promise<void> {
    const id = typeof ctx.query.id === 'string' ? parseId(ctx.query.id.trim()) : undefined;
    if (id === undefined) throw new WidgetParamError('id', 'must be a webshop id (a positive whole number)');
    const parsed = parseProductWidgetQuery(ctx.query);
    if (!parsed.ok) throw new WidgetParamError(parsed.param, parsed.problem);
    const shop = await findWebshop(services, id);
    if (!shop) {
      await sendErrorPage(ctx, 404, 'Unknown webshop', `There is no webshop with id ${id}.`);
      return;
    }
    const { html, csp } = await productWidgetPage(
      services,
      { id: shop.id, name: shop.name, ...shopDefaults(shop) },
      parsed.value,
      shopperListing(ctx),
    );
    ctx.set('Content-Security-Policy', csp);
    ctx.vary('Sec-Fetch-Site');
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.set('ETag', `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`);
    ctx.type = 'text/html; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) ctx.status = 304;
    else ctx.body = html;
  }

  router.get('/webshops/widget_html', (ctx) =>
    htmlPage(ctx, async () => {
      if (typeof ctx.query.layout === 'string' && ctx.query.layout.trim().toLowerCase() === PRODUCT_LAYOUT) {
        await productPage(ctx);
        return;
      }
      const memo = known.get(ctx.querystring);
      let shop = memo ? await findWebshop(services, memo.shopId) : null;
      let options: WidgetOptions;
      let key: string;
      if (memo && shop && shop.updated.getTime() === memo.updated) {
        ({ options, key } = memo);
      } else {
        const query = parseWidgetQuery(ctx.query);
        shop = await findWebshop(services, query.id);
        if (!shop) {
          await sendErrorPage(ctx, 404, 'Unknown webshop', `There is no webshop with id ${query.id}.`);
          return;
        }
        options = widgetOptions(query, shopDefaults(shop));
        // The shop's update time is part of the key: a renamed shop or new hero colour shows at once.
        key = `${shop.updated.getTime()}:${optionsKey(options)}`;
        if (ctx.querystring.length <= KNOWN_QUERY_MAX) {
          const memo = { shopId: shop.id, updated: shop.updated.getTime(), options, key };
          known.set(ctx.querystring, memo, 512 + key.length * 2);
        }
      }
      if (options.css && !loadedAsFrame(ctx)) {
        options = { ...options, css: undefined };
        key = `${shop.updated.getTime()}:${optionsKey(options)}`;
      }
      const found = shop;
      const shown = options;
      const page = await pages.get(shop.id, key, async () => {
        const { html, csp } = renderWidgetPage(shown, await widgetData(found, shown));
        return preparePage(html, csp);
      });
      // With css the page depends on Sec-Fetch-Dest: a cache must not give a frame's page to a top-level visit.
      const vary = ctx.query.css === undefined ? undefined : 'Sec-Fetch-Dest';
      sendPage(ctx, page, { cacheControl: WIDGET_CACHE_CONTROL, vary });
    }),
  );

  router.get('/webshops/widget', (ctx) =>
    htmlPage(ctx, async () => {
      const rawId = typeof ctx.query.id === 'string' ? ctx.query.id.trim() : '';
      const id = parseId(rawId);
      const shop = id === undefined ? null : await findWebshop(services, id);
      let problem: string | undefined;
      let query: WidgetQuery = { id: id ?? 0, layout: 'new_default' };
      try {
        query = parseWidgetQuery({ ...ctx.query, id: String(id ?? 1) });
      } catch (err) {
        if (!(err instanceof WidgetParamError)) throw err;
        problem = `The parameter ${err.param} ${err.problem}; the default is shown instead.`;
      }
      if (rawId && !shop) problem = `There is no webshop with id ${rawId}.`;
      const defaults: ShopDefaults = shop
        ? shopDefaults(shop)
        : { heroColor: '', mainLanguage: 'en', enabledLanguages: ['en'] };
      const options = widgetOptions(query, defaults);
      const titles: Partial<Record<Language, string>> = {};
      if (shop)
        for (const l of LANGUAGES)
          titles[l] = localeFor(defaults.enabledLanguages.includes(l) ? l : 'en').t.title(shop.name);
      const { html, csp } = renderConfigurator({
        baseUrl: config.baseUrl,
        shop: shop ? { id: shop.id, name: shop.name, languages: defaults.enabledLanguages } : undefined,
        idInput: rawId,
        options,
        titles,
        problem,
      });
      // The configurator must not be framed by other sites (it is a merchant's tool, not the widget).
      sendPage(ctx, await preparePage(html, csp), { status: rawId && !shop ? 404 : 200, cacheControl: 'no-store' });
      ctx.set('X-Frame-Options', 'SAMEORIGIN');
    }),
  );

  router.get('/webshops/rich_snippet', async (ctx) => {
    ctx.state.envelope = { style: 'admin' };
    // Plugins fetch this server-side and cache it for two hours; errors are HTTP 200 like the classic API.
    // Readable from any origin: CORS is declared for this path in server/routes.ts.
    const id = parseId(ctx.query.id);
    const shop = id === undefined ? null : await findWebshop(services, id);
    if (!shop) {
      ctx.body = {
        result: 'error',
        error: id === undefined ? 'The parameter id must be a webshop id.' : `There is no webshop with id ${id}.`,
      } satisfies RichSnippet;
      return;
    }
    const language: Language = normalizeLanguage(ctx.query.lang) ?? mainLanguage(shop);
    const summary = await ratings.summary(shop.id);
    const content = renderRichSnippet(
      {
        shopName: shop.name,
        pageUrl: publicPageUrl(config.baseUrl, shop.id),
        policyUrl: policyPageUrl(config.baseUrl, shop.id, language),
        score: summary.rating_average,
        count: summary.amount,
      },
      language,
    );
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = { result: 'ok', content } satisfies RichSnippet;
  });
}
