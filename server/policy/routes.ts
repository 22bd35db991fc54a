// GET /webshops/{id}/policy: the review policy page (issue 11). The operator's texts for it are in admin.ts.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { sendHtml } from '../pages/html.js';
import { normalizeLanguage, type Language } from '../languages.js';
import { publicPageUrl } from '../links.js';
import { STYLE_HASH } from '../pages/components.js';
import type { Services } from '../services.js';
import { findWebshop } from '../webshops/service.js';
import { mainLanguage } from '../webshops/rules.js';
import { removalRows, twelveMonthsBefore } from './numbers.js';
import { policyFigures } from './service.js';
import { POLICY_STRINGS, policyLanguage } from './strings.js';
import { policyNotFound, policyPage } from './view.js';
import { starTable } from '../compliance/counters.js';

/** ?lang=, else the browser's Accept-Language, else the shop's main language (then the page's own fallback). */
export function requestedLanguage(query: unknown, accepted: readonly string[], shopLanguage: Language): Language {
  return normalizeLanguage(query) ?? accepted.map(normalizeLanguage).find((l) => l !== undefined) ?? shopLanguage;
}

export function registerPolicyRoutes(
  router: Router,
  services: Pick<
    Services,
    'compliance' | 'config' | 'moderation' | 'now' | 'policyNumbers' | 'policyTexts' | 'reviews' | 'webshops'
  >,
): void {
  const { config } = services;
  const texts = services.policyTexts;

  const send = (ctx: Context, status: number, html: string) =>
    sendHtml(ctx, status, html, { secret: false, styleHash: STYLE_HASH, scriptHash: "'none'" });

  router.get('/webshops/:id/policy', async (ctx) => {
    const rawId = ctx.params.id ?? '';
    const shop = /^\d{1,15}$/.test(rawId) ? await findWebshop(services, Number(rawId)) : null;
    const accepted = ctx.acceptsLanguages();
    if (!shop) {
      const lang = policyLanguage(requestedLanguage(ctx.query.lang, accepted, 'en'));
      return send(ctx, 404, policyNotFound(POLICY_STRINGS[lang], lang, config.brandName));
    }
    const lang = policyLanguage(requestedLanguage(ctx.query.lang, accepted, mainLanguage(shop)));
    const now = services.now();
    const since = twelveMonthsBefore(now);
    const [{ numbers, removals: counted, stars }, text] = await Promise.all([
      policyFigures(services, shop.id, since, now),
      texts.get(lang),
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
