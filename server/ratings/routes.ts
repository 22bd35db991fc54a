// GET /api/1.0/ratings.json and /api/1.0/ratings_summary.json.
import type Router from '@koa/router';
import { classic } from '../http/classic.js';
import { intParam, stringParam } from '../http/params.js';
import { normalizeLanguage } from '../languages.js';
import type { Services } from '../services.js';

export function registerRatingRoutes(router: Router, services: Services): void {
  const { ratings } = services;

  router.get(
    '/api/1.0/ratings.json',
    classic(services, { empty: { ratings: [], total: 0 } }, async (_ctx, { shop, params }) => {
      const offset = intParam(params.offset, 'offset', { min: 0, max: 1_000_000_000, fallback: 0 });
      const limit = intParam(params.limit, 'limit', { min: 1, max: 100, fallback: 10 });
      const requested = stringParam(params.language, 'language')?.trim() ?? '';
      const language = requested ? normalizeLanguage(requested) : undefined;
      // A language we cannot map has no reviews (rather than silently returning every language).
      const page = requested && !language ? { ratings: [], total: 0 } : await ratings.page(shop.id, { language, offset, limit });
      return { message: 'Ratings successfully retrieved!', ratings: page.ratings, total: page.total };
    }),
  );

  router.get(
    '/api/1.0/ratings_summary.json',
    classic(services, { empty: { data: null } }, async (_ctx, { shop }) => ({
      message: 'Ratings summary successfully retrieved!',
      data: await ratings.summary(shop.id),
    })),
  );
}
