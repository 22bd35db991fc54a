// POST /reviews/{id}/helpful: a shopper found a published review helpful. One vote per client address and review,
// ever (a keyed hash of the address: rules.ts); one per browser too, which the page's script remembers in the
// browser's storage (no cookie). The page's form works without JavaScript: the answer sends the browser back to
// the shop page it came from (303); the script asks for JSON and updates the count in place. Form votes sent from
// pages of other origins are refused (403, rules.ts: sameOriginVote).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { readFields } from '../http/body.js';
import { clientKey } from '../http/client-key.js';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { normalizeLanguage } from '../languages.js';
import { returnPath, sameOriginVote, voterKey } from './rules.js';
import { reviewToVoteOn } from './service.js';
import { HELPFUL_STRINGS } from './strings.js';

export function registerHelpfulRoutes(
  router: Router,
  services: Pick<Services, 'config' | 'helpful' | 'ratings' | 'reviews'>,
): void {
  const { config, helpful, ratings } = services;
  const ownOrigin = new URL(config.baseUrl).origin;

  router.post('/reviews/:id/helpful', async (ctx: Context) => {
    const review = await reviewToVoteOn(services, ctx.params.id ?? '');
    // The form (no script, answered by a redirect) is the service's own shop page: a form on another site that posts
    // here is a forgery. The JSON vote is the product block's on the shop's own pages, cross-site by nature, like
    // the rest of the embed's API (SECURITY.md: what that leaves open).
    const json = ctx.accepts('html', 'json') === 'json';
    if (!json && !sameOriginVote(ownOrigin, ctx.get('origin'), ctx.get('sec-fetch-site')))
      throw new HttpError(403, 'A vote must come from this service’s own page.', 'cross_site');
    const fields = await readFields(ctx, 4096);
    const counted = await helpful.vote(
      review.shopId,
      review.id,
      voterKey(config.helpfulVoteKey, review.id, clientKey(ctx.ip)),
    );
    if (counted) ratings.helpfulVoted(review.shopId, review.id);
    if (json) {
      const n = (await helpful.countsOf(review.shopId)).get(review.id) ?? 0;
      const lang = normalizeLanguage(typeof fields.lang === 'string' ? fields.lang : '') ?? review.language;
      ctx.body = { counted, helpful: n, text: HELPFUL_STRINGS[lang].count(n) };
      return;
    }
    ctx.status = 303;
    ctx.redirect(`${returnPath(review.shopId, fields.return)}#review-${review.id}`);
  });
}
