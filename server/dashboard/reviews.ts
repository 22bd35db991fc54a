// The dashboard's reviews page API (issue 10, page 2), under /dashboard/api/shops/:shopId/reviews:
//   GET    …/reviews                      list, newest first, filtered and searched (from the view, review-view.ts)
//   POST   …/reviews/:reviewId/reply      reply (as POST /api/1.0/review_replies.json: replies/service.ts)
//   PATCH  …/reviews/:reviewId/reply      correct the reply's text
//   DELETE …/reviews/:reviewId/reply      remove the reply
//   POST   …/reviews/:reviewId/read       mark read or unread (no webhook event: ReviewStore.markRead)
//   POST   …/reviews/:reviewId/report     report to the operator (moderation's queue, the user as reporter)
// Every route needs a session and a role of the shop that may do the action (accounts/middleware.ts); another
// shop's review answers 404 like a missing one. Replies and reports go to the audit trail with the user.
// The shop cannot hide or delete a review itself: no review gating.
import type { DashboardReview, FiledReport } from './contract.js';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { accountOf } from '../accounts/middleware.js';
import { can, type Role } from '../accounts/roles.js';
import { changesOf } from '../audit/changes.js';
import type { AuditActor } from '../audit/model.js';
import { parseJsonObject, readRawBody, type Fields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { enforceLimit, RateLimiter } from '../http/rate-limit.js';
import { idParam } from '../http/validate.js';
import { GROUNDS, REPORT_LIMITS } from '../moderation/schema.js';
import { submitReport } from '../moderation/service.js';
import { replyRequestSchema } from '../replies/reply.js';
import { editReply, removeReply, replyToReview } from '../replies/service.js';
import type { Review } from '../reviews/model.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { parseInput, shopGuard } from './input.js';
import { REVIEW_STATUSES, searchable, toRow, type ReviewFilter, type ViewRow } from './review-view.js';
import type { ModerationDeps } from '../moderation/service.js';

const BODY_LIMIT = 64 * 1024;
const HOUR_MS = 3_600_000;
/** Reports a shop may file an hour: enough for a bad day, not enough to flood the operator's queue. */
const REPORTS_PER_SHOP_PER_HOUR = 30;
/** The longest search text; the search is a plain substring of the comment or the name. */
const SEARCH_MAX = 200;

/** A JSON object body (whatever else is a 400 `invalid`). */
async function jsonBody(ctx: Context): Promise<Fields> {
  const raw = await readRawBody(ctx, BODY_LIMIT);
  try {
    return parseJsonObject(raw.length ? raw : '{}');
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw new HttpError(400, `body: ${err.message}`, 'invalid');
    throw err;
  }
}

interface SignedIn {
  shop: Webshop;
  userId: string;
  email: string;
}

export function signedIn(ctx: Context): SignedIn {
  const { user } = accountOf(ctx);
  return { shop: ctx.state.shop as Webshop, userId: String(user.id), email: user.email };
}

const userActor = (who: SignedIn): AuditActor => ({ kind: 'user', id: who.userId });
/** The reply's text in the trail: that it changed, and its lengths (never the words: they may name the writer). */
const replyText = (before: Review | null, after: Review | null) =>
  changesOf({ text: before?.reply?.text ?? '' }, { text: after?.reply?.text ?? '' }, ['text'], ['text']);

/** Query values are single strings; an empty one (an unset form field) means "no filter". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const wholeNumber = (min: number, max: number) =>
  z
    .string({ error: 'must be a whole number' })
    .regex(/^\d{1,9}$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );
const day = z
  .string({ error: 'must be a date YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date YYYY-MM-DD' })
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      error: 'must be a date YYYY-MM-DD',
    },
  );

const reviewListFields = {
  page: optional(wholeNumber(1, 1_000_000)),
  page_size: optional(wholeNumber(1, 100)),
  rating: optional(wholeNumber(1, 5)),
  status: optional(z.enum(REVIEW_STATUSES, { error: `must be one of ${REVIEW_STATUSES.join(', ')}` })),
  language: optional(
    z.string({ error: 'must be a language code' }).regex(/^[a-z]{2}$/, { error: 'must be a two-letter language code' }),
  ),
  reply: optional(z.enum(['with', 'without'], { error: 'must be with or without' })),
  unread: optional(z.enum(['1', '0', 'true', 'false'], { error: 'must be 1 or 0' })),
  from: optional(day),
  to: optional(day),
  q: optional(
    z.string({ error: 'must be text' }).max(SEARCH_MAX, { error: `must be at most ${SEARCH_MAX} characters` }),
  ),
};

export const reviewListQuery = z
  .object(reviewListFields)
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'must not be before from', path: ['to'] });

export const replyBody = z
  .object({ text: replyRequestSchema.shape.reply, notify: z.boolean({ error: 'must be true or false' }).optional() })
  .strict();
export const replyEditBody = z.object({ text: replyRequestSchema.shape.reply }).strict();
export const readBody = z.object({ read: z.boolean({ error: 'must be true or false' }) }).strict();
export const reportBody = z
  .object({
    ground: z.enum(GROUNDS, { error: `must be one of ${GROUNDS.join(', ')}` }),
    text: z
      .string({ error: 'must be text' })
      .trim()
      .max(REPORT_LIMITS.text, { error: `must be at most ${REPORT_LIMITS.text} characters` })
      .default(''),
  })
  .strict();

/** A listed review: never the writer's e-mail address (support staff see the list too), nor link secrets. */
function reviewItem(r: ViewRow): DashboardReview {
  return {
    id: r.id,
    name: r.name,
    rating: r.rating,
    ratings: r.ratings,
    comment: r.comment,
    language: r.language,
    country: r.country,
    order: r.order,
    created: new Date(r.created).toISOString(),
    modified: new Date(r.modified).toISOString(),
    status: r.status,
    origin: r.origin,
    incentivised: r.incentivised,
    imported_from: r.imported_from,
    read: r.read,
    reply: r.reply && { text: r.reply.text, date: r.reply.date.toISOString(), notify: r.reply.notify },
    photos: (r.photos ?? []).map(({ url, thumb_url, thumb_width, thumb_height, alt }) => ({
      url,
      thumb_url,
      thumb_width,
      thumb_height,
      alt,
    })),
  };
}

const noSuchReview = () => new HttpError(404, 'No such review.');
const answer = (ctx: Context, review: Review | null) => {
  if (!review) throw noSuchReview();
  ctx.body = reviewItem(toRow(review));
};

export function registerDashboardReviewRoutes(
  router: Router,
  services: ModerationDeps &
    Pick<
      Services,
      'config' | 'log' | 'reviewView' | 'sessions' | 'signInLinks' | 'teamInvitations' | 'users' | 'webshops'
    >,
): void {
  const view = services.reviewView;
  const guard = shopGuard(services);
  const reportsByShop = new RateLimiter(REPORTS_PER_SHOP_PER_HOUR, () => services.now().getTime(), 100_000, HOUR_MS);
  const base = '/dashboard/api/shops/:shopId/reviews';
  const reviewIdOf = (ctx: Context) => idParam(ctx.params.reviewId, 'review');

  router.get(base, ...guard('read'), async (ctx) => {
    const { shop } = signedIn(ctx);
    // Named like any other field (zod would blame the whole "body" for an unknown key).
    const unknown = Object.keys(ctx.query).find((key) => !Object.hasOwn(reviewListFields, key));
    if (unknown !== undefined) throw new HttpError(400, `${unknown}: is not a parameter of this list`, 'invalid');
    const q = parseInput(reviewListQuery, ctx.query);
    const page = q.page ?? 1;
    const pageSize = q.page_size ?? 20;
    const search = q.q?.trim();
    const filter: ReviewFilter = {
      rating: q.rating,
      status: q.status,
      language: q.language,
      reply: q.reply,
      unread: q.unread === '1' || q.unread === 'true' ? true : undefined,
      from: q.from,
      to: q.to,
      q: search ? searchable(search) : undefined,
    };
    const { items, total } = await view.page(shop.id, filter, (page - 1) * pageSize, pageSize);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { items: items.map(reviewItem), total, page, page_size: pageSize };
  });

  router.post(`${base}/:reviewId/reply`, ...guard('reply'), async (ctx) => {
    const who = signedIn(ctx);
    const reviewId = reviewIdOf(ctx);
    const body = parseInput(replyBody, await jsonBody(ctx));
    // Answering on the shop's page is not writing to the customer's inbox: the role needs `notify` for that.
    const role = ctx.state.role as Role;
    if (body.notify && !can(role, 'notify')) {
      throw new HttpError(403, `The role ${role} may not e-mail the reviewer (notify).`, 'forbidden');
    }
    const before = await services.reviews.get(reviewId);
    const updated = await replyToReview(services, who.shop.id, reviewId, {
      reply: body.text,
      notify: body.notify ?? false,
    });
    if (updated) {
      await services.audit.record({
        shopId: who.shop.id,
        actor: userActor(who),
        action: before?.reply ? 'reply.replaced' : 'reply.created',
        target: `review:${reviewId}`,
        details: {
          revision: updated.reply?.revision ?? null,
          notify: updated.reply?.notify ?? false,
          ...replyText(before, updated),
        },
      });
    }
    answer(ctx, updated);
  });

  router.patch(`${base}/:reviewId/reply`, ...guard('reply'), async (ctx) => {
    const who = signedIn(ctx);
    const reviewId = reviewIdOf(ctx);
    const body = parseInput(replyEditBody, await jsonBody(ctx));
    const before = await services.reviews.get(reviewId);
    const updated = await editReply(services, who.shop.id, reviewId, body.text);
    if (updated === 'no_reply') throw new HttpError(409, 'The review has no reply to edit.', 'no_reply');
    if (updated) {
      await services.audit.record({
        shopId: who.shop.id,
        actor: userActor(who),
        action: 'reply.edited',
        target: `review:${reviewId}`,
        details: {
          revision: updated.reply?.revision ?? null,
          notify: updated.reply?.notify ?? false,
          ...replyText(before, updated),
        },
      });
    }
    answer(ctx, updated);
  });

  router.delete(`${base}/:reviewId/reply`, ...guard('reply'), async (ctx) => {
    const who = signedIn(ctx);
    const reviewId = reviewIdOf(ctx);
    const before = await services.reviews.get(reviewId);
    const updated = await removeReply(services, who.shop.id, reviewId);
    if (updated && before?.reply) {
      await services.audit.record({
        shopId: who.shop.id,
        actor: userActor(who),
        action: 'reply.deleted',
        target: `review:${reviewId}`,
        details: replyText(before, updated),
      });
    }
    answer(ctx, updated);
  });

  router.post(`${base}/:reviewId/read`, ...guard('mark_read'), async (ctx) => {
    const { shop } = signedIn(ctx);
    const reviewId = reviewIdOf(ctx);
    const body = parseInput(readBody, await jsonBody(ctx));
    const review = await services.reviews.get(reviewId);
    if (!review || review.deleted || review.shopId !== shop.id) throw noSuchReview();
    answer(ctx, await services.reviews.markRead(reviewId, body.read));
  });

  router.post(`${base}/:reviewId/report`, ...guard('report'), async (ctx) => {
    const who = signedIn(ctx);
    const reviewId = reviewIdOf(ctx);
    const body = parseInput(reportBody, await jsonBody(ctx));
    const review = await services.reviews.get(reviewId);
    if (!review || review.deleted || review.shopId !== who.shop.id) throw noSuchReview();
    enforceLimit(reportsByShop, `shop:${who.shop.id}`);
    // The user is the reporter: the operator can write back to the address they signed in with.
    const report = await submitReport(
      services,
      review,
      { ground: body.ground, text: body.text, email: who.email },
      userActor(who),
      'dashboard',
    );
    ctx.status = 201;
    ctx.body = {
      report: {
        id: report._id.toHexString(),
        review_id: review.id,
        ground: report.ground,
        status: report.status,
        created: report.created.toISOString(),
      },
    } satisfies FiledReport;
  });
}
