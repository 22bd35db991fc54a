// GET /webshops/{id}/policy: the review policy page (issue 11). The operator's texts for it are in admin.ts.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { sendHtml } from '../pages/html.js';
import { normalizeLanguage, type Language } from '../languages.js';
import { publicPageUrl } from '../links.js';
import { STYLE_HASH } from '../pages/components.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { mainLanguage } from '../webshops/rules.js';
import { policyNumbers, removalRows, twelveMonthsBefore, type PolicyNumbers } from './numbers.js';
import { POLICY_STRINGS, policyLanguage } from './strings.js';
import { policyNotFound, policyPage } from './view.js';
import { starTable } from '../compliance/counters.js';
import { formatDate } from '../time.js';

/** ?lang=, else the browser's Accept-Language, else the shop's main language (then the page's own fallback). */
export function requestedLanguage(query: unknown, accepted: readonly string[], shopLanguage: Language): Language {
  return normalizeLanguage(query) ?? accepted.map(normalizeLanguage).find((l) => l !== undefined) ?? shopLanguage;
}

export function registerPolicyRoutes(router: Router, services: Services): void {
  const { webshops, reviews, config } = services;
  const texts = services.policyTexts;

  // The numbers (`policyNumbers`, built in app.ts, dropped there when the shop's public reviews change) are
  // recomputed past the cache TTL only when the shop's public reviews changed (one read by `_id` to know).
  async function numbersOf(shop: Webshop): Promise<PolicyNumbers> {
    const cached = await services.policyNumbers.fetch(
      shop.id,
      async (stale) => {
        const version = (await reviews.versionsOf(shop.id)).public;
        if (stale && stale.version === version) return stale;
        return { version, numbers: policyNumbers(await reviews.publishedOrigins(shop.id)) };
      },
      { bytes: () => 512 },
    );
    return cached.numbers;
  }

  const send = (ctx: Context, status: number, html: string) =>
    sendHtml(ctx, status, html, { secret: false, styleHash: STYLE_HASH, scriptHash: "'none'" });

  router.get('/webshops/:id/policy', async (ctx) => {
    const rawId = ctx.params.id ?? '';
    const shop = /^\d{1,15}$/.test(rawId) ? await webshops.get(Number(rawId)) : null;
    const accepted = ctx.acceptsLanguages();
    if (!shop) {
      const lang = policyLanguage(requestedLanguage(ctx.query.lang, accepted, 'en'));
      return send(ctx, 404, policyNotFound(POLICY_STRINGS[lang], lang, config.brandName));
    }
    const lang = policyLanguage(requestedLanguage(ctx.query.lang, accepted, mainLanguage(shop)));
    const now = services.now();
    const since = twelveMonthsBefore(now);
    const [numbers, text, counted, stars] = await Promise.all([
      numbersOf(shop),
      texts.get(lang),
      // Removals are the moderation decisions' (moderation/store.ts), counted per ground.
      services.moderation.removalsByGround(shop.id, since),
      // Per star: the compliance counters of the days since (one `_id` range, no history read).
      services.compliance.ofShop(shop.id, formatDate(since), formatDate(now)),
    ]);
    ctx.vary('Accept-Language');
    send(
      ctx,
      200,
      policyPage({
        lang,
        t: POLICY_STRINGS[lang],
        brandName: config.brandName,
        shopName: shop.name,
        shopPageUrl: publicPageUrl(config.baseUrl, shop.id) + (lang === mainLanguage(shop) ? '' : `?lang=${lang}`),
        text: text.text,
        numbers,
        removed: removalRows(counted),
        removedSince: since,
        signals: config.signals,
        incentivisedInScore: config.scorePolicy.incentivisedInScore,
        stars: starTable(stars),
      }),
    );
  });
}
