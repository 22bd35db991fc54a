// Operator API for reviews: import (from another platform), read, moderate and delete. Every write goes through
// ReviewStore, which records the review events webhooks deliver, and into the shop's audit trail (operator.ts).
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { idParam, validate } from '../http/validate.js';
import { isValidEmail, normalizeEmail } from '../email.js';
import { normalizeLanguage } from '../languages.js';
import { toRating } from './rating.js';
import type { Services } from '../services.js';
import { formatDate, parseSyncTime } from '../time.js';
import { mainLanguage } from '../webshops/rules.js';
import type { Review, ReviewProduct } from './model.js';
import { noSubRatings } from './rules.js';
import { originFields } from './origin.js';
import { requireWebshop } from '../webshops/service.js';
import { changeReview, helpfulVotesOf, importReview } from './operator.js';

const JSON_LIMIT = 1024 * 1024;
const MAX_PRODUCTS = 100;
/** Clocks of the platform an import comes from may run a little ahead of ours. */
const FUTURE_SLACK_MS = 5 * 60_000;

const text = (max: number) => z.string().trim().max(max);
const score = z.number().int().min(1).max(5);
const subScore = z.number().int().min(0).max(5);
const optionalUrl = z.union([z.url({ protocol: /^https?$/ }).max(2000), z.literal('')]);

const subRatings = z
  .object({ shippingtime: subScore, customerservice: subScore, pricequality: subScore, aftersale: subScore })
  .partial()
  .strict();

const comment = z.union([text(10_000), z.null()]).transform((c) => (c ? c : null));

const country = z
  .string()
  .trim()
  .regex(/^([A-Za-z]{2})?$/, 'a two-letter country code such as NL, or empty')
  .transform((c) => c.toUpperCase());

const email = z
  .string()
  .max(320)
  .transform(normalizeEmail)
  .refine((e) => e === '' || isValidEmail(e), 'a valid e-mail address, or empty');

const created = z
  .string()
  .refine((v) => parseSyncTime(v) !== undefined, 'an ISO 8601 date-time or YYYY-MM-DD HH:MM:SS (UTC)')
  .transform((v) => parseSyncTime(v)!);

/** The Rating object's `date`: the day of `created` in UTC. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date such as 2024-11-03 (YYYY-MM-DD)')
  .refine((v) => formatDate(new Date(`${v}T00:00:00Z`)) === v, 'a date that exists in the calendar');

/** The order's date as the source gave it (`YYYY-MM-DD`), or the month of the experience (`YYYY-MM`). */
const experienceDate = z.union([
  day,
  z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a date such as 2024-11-03, or a month such as 2024-11'),
]);

const product = z
  .object({
    id: z.union([text(200).min(1), z.number().int().nonnegative()]).transform(String),
    name: text(500).min(1),
    url: optionalUrl.optional(),
    image_url: optionalUrl.optional(),
    sku: text(200).optional(),
    gtin: text(50).optional(),
    mpn: text(200).optional(),
    brand: text(200).optional(),
    rating: z.union([score, z.null()]).optional(),
    content: text(10_000).optional(),
  })
  .strict();

export const importSchema = z
  .object({
    name: text(200).default(''),
    email: email.default(''),
    rating: score,
    ratings: subRatings.optional(),
    comment: comment.optional(),
    country: country.optional(),
    read: z.boolean().optional(),
    quarantine: z.boolean().optional(),
    language: text(20).optional(),
    order: text(200).optional(),
    created: created.optional(),
    date: day.optional(),
    /** What the source platform said about the purchase; `verified` is its former name, still accepted. */
    source_verified: z.boolean().optional(),
    verified: z.boolean().optional().meta({ deprecated: true, description: 'former name of source_verified' }),
    /** The platform the review came from, shown to shoppers as "Imported from …". */
    imported_from: text(100).optional(),
    incentivised: z.boolean().optional(),
    products: z.array(product).max(MAX_PRODUCTS).optional(),
    /** The order's date, when the source knew it; else the review's original date (issue 21). */
    experience_date: experienceDate.optional(),
  })
  .strict();

export const patchSchema = z
  .object({
    comment,
    rating: score,
    ratings: subRatings,
    quarantine: z.boolean(),
    read: z.boolean(),
    is_spam: z.boolean(),
    valid: z.boolean(),
    name: text(200),
    country,
    /** The operator learned that the writer was offered something for the review (or that they were not). */
    incentivised: z.boolean(),
  })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'give at least one field to change');

/**
 * When the review was written, from `created` and the Rating object's `date` (both, as ratings.json exports them,
 * or either): `date` alone means the start of that day in UTC; both must name the same day.
 */
function importedCreated(input: { created?: Date; date?: string }): Date | undefined {
  if (input.created && input.date && formatDate(input.created) !== input.date) {
    throw new HttpError(
      422,
      `date: ${input.date} disagrees with created, which falls on ${formatDate(input.created)} (UTC); give one of them or make them agree`,
      'validation_failed',
    );
  }
  return input.created ?? (input.date ? new Date(`${input.date}T00:00:00Z`) : undefined);
}

function toProduct(p: z.infer<typeof product>): ReviewProduct {
  return {
    external_id: p.id,
    name: p.name,
    url: p.url ?? '',
    image_url: p.image_url ?? '',
    sku: p.sku ?? '',
    gtin: p.gtin ?? '',
    mpn: p.mpn ?? '',
    brand: p.brand ?? '',
    rating: p.rating ?? null,
    content: p.content ?? '',
  };
}

/** A ratings.json rating plus what moderation changes (PATCH answers this). */
function moderatedView(r: Review, helpful: number, baseUrl: string) {
  return { ...toRating(r, baseUrl), helpful, is_spam: r.is_spam, valid: r.valid, published: r.published };
}

/** Everything stored about a review except the writer's secret link tokens; dates serialise as ISO 8601. */
function adminReviewView(r: Review): Record<string, unknown> {
  return { ...Object.fromEntries(Object.entries(r).filter(([key]) => !/token$/i.test(key))), ...originFields(r) };
}

const notFound = () => new HttpError(404, 'No such review.');

export function registerReviewAdminRoutes(
  router: Router,
  services: Pick<Services, 'audit' | 'config' | 'helpful' | 'now' | 'reviews' | 'webshops'>,
): void {
  const { reviews } = services;
  const admin = requireAdmin(services.config.adminToken);

  router.post('/admin/api/webshops/:id/reviews', admin, async (ctx) => {
    const shop = await requireWebshop(services, idParam(ctx.params.id, 'webshop'));
    const input = validate(importSchema, await readFields(ctx, JSON_LIMIT));
    const written = importedCreated(input);
    if (written && written.getTime() > services.now().getTime() + FUTURE_SLACK_MS) {
      throw new HttpError(422, `${input.created ? 'created' : 'date'}: must not be in the future`, 'validation_failed');
    }
    // Both forms compare as text: a month sorts before the days in it.
    if (input.experience_date && input.experience_date > formatDate(services.now())) {
      throw new HttpError(422, 'experience_date: must not be in the future', 'validation_failed');
    }
    const review = await importReview(services, shop.id, {
      name: input.name,
      email: input.email,
      rating: input.rating,
      ratings: { ...noSubRatings(), ...input.ratings },
      comment: input.comment ?? null,
      country: input.country ?? '',
      read: input.read,
      quarantine: input.quarantine,
      language: normalizeLanguage(input.language) ?? mainLanguage(shop),
      order: input.order ?? '',
      created: written,
      // What the source platform claimed proves no order here: kept apart, never `verified`.
      verified: false,
      source_verified: input.source_verified ?? input.verified ?? false,
      incentivised: input.incentivised ?? false,
      imported_from: input.imported_from || null,
      // The date it carried on the source platform, when the operator gave one (as `created` or as `date`).
      original_date: written ?? null,
      products: input.products?.map(toProduct) ?? [],
      ...(input.experience_date ? { experience_date: input.experience_date } : {}),
      source: 'import',
    });
    ctx.status = 201;
    ctx.body = { id: review.id };
  });

  router.get('/admin/api/reviews/:id', admin, async (ctx) => {
    const review = await reviews.get(idParam(ctx.params.id, 'review'));
    if (!review) throw notFound();
    ctx.body = adminReviewView(review);
  });

  router.patch('/admin/api/reviews/:id', admin, async (ctx) => {
    const id = idParam(ctx.params.id, 'review');
    const patch = validate(patchSchema, await readFields(ctx, JSON_LIMIT));
    const updated = await changeReview(services, id, patch);
    if (!updated) throw notFound();
    ctx.body = moderatedView(updated, await helpfulVotesOf(services, updated), services.config.baseUrl);
  });
}
