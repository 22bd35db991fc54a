// GET /api/1.0/ratings.json and /api/1.0/ratings_summary.json.
import type Router from '@koa/router';
import { classic } from '../http/classic.js';
import { intParam, stringParam } from '../http/params.js';
import { normalizeLanguage } from '../languages.js';
import type { Services } from '../services.js';
import { JsonText, memoJson } from '../http/json-text.js';

const LISTED = 'Ratings successfully retrieved!';

export function registerRatingRoutes(
  router: Router,
  services: Pick<Services, 'ratings' | 'shopLimiter' | 'webshops'>,
): void {
  const { ratings } = services;

  router.get(
    '/api/1.0/ratings.json',
    classic(services, { empty: { ratings: [], total: 0 } }, async (_ctx, { shop, params }) => {
      const offset = intParam(params.offset, 'offset', { min: 0, max: 1_000_000_000, fallback: 0 });
      const limit = intParam(params.limit, 'limit', { min: 1, max: 100, fallback: 10 });
      const requested = stringParam(params.language, 'language')?.trim() ?? '';
      const language = requested ? normalizeLanguage(requested) : undefined;
      // A language we cannot map has no reviews (rather than silently returning every language).
      if (requested && !language) return { message: LISTED, ratings: [], total: 0 };
      const page = await ratings.page(shop.id, { language, offset, limit });
      // Each cached rating is serialised once; a page is their texts joined (same output as JSON.stringify).
      const list = page.ratings.map((r) => memoJson(r, () => r)).join(',');
      return new JsonText(
        `{"status":"success","message":${JSON.stringify(LISTED)},"ratings":[${list}],"total":${page.total}}`,
      );
    }),
  );

  router.get(
    '/api/1.0/ratings_summary.json',
    classic(services, { empty: { data: null } }, async (_ctx, { shop }) => {
      const summary = await ratings.summary(shop.id);
      return new JsonText(
        memoJson(summary, () => ({
          status: 'success',
          message: 'Ratings summary successfully retrieved!',
          data: summary,
        })),
      );
    }),
  );
}
