// The JSON API the shopper embeds call from shops' pages (the embed issue's contract, items 1–6): shop data and
// reviews for the sidebar and pop-ups, the order check and consent of the Privacy First pop-up, the review written
// in it, and the serviceAddReview form. Every call is cross-site: CORS `*` without credentials, never a cookie.
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { parseJsonObject, readRawBody, type Fields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { RateLimiter } from '../http/rate-limit.js';
import { clientKey } from '../http/client-key.js';
import { idParam, validate } from '../http/validate.js';
import { verifyOrderSignature } from '../consents/signature.js';
import { normalizeLanguage } from '../languages.js';
import type { PublicRating } from '../ratings/read-model.js';
import type { Services } from '../services.js';
import { enabledLanguages, mainLanguage, requiresSignedOrderData, type Webshop } from '../webshops/store.js';
import {
  consentSchema,
  experienceSchema,
  isHoneypotFilled,
  orderData,
  pagingParam,
  popupReviewSchema,
  signedFields,
  verifySchema,
  type OrderData,
} from './input.js';
import { awaitConfirmation, expireUnconfirmed, EXPIRY_JOB, MAIL_JOB, NO_CONSENT } from './release.js';
import { badgesFor, popupTrust } from './rules.js';
import { newSecret } from './tokens.js';

const BODY_LIMIT = 64 * 1024;
const HOUR_MS = 3_600_000;
/** Per client address, for the pop-up's calls: a shopper makes three or four. */
const POPUP_POSTS_PER_MINUTE = 30;
/** The serviceAddReview form: anyone can post it, so it is limited per address and per e-mail address. */
const EXPERIENCES_PER_HOUR_PER_ADDRESS = 5;
const EXPERIENCES_PER_HOUR_PER_EMAIL = 3;

const PATHS = {
  shop: '/embed/:id/shop.json',
  reviews: '/embed/:id/reviews.json',
  verify: '/embed/:id/order/verify',
  consent: '/embed/:id/consent',
  review: '/embed/:id/reviews',
  experiences: '/embed/:id/experiences',
} as const;

export const EMBED_MESSAGES = {
  wrongSignature: 'The order data signature is not valid.',
  otherShop: 'order.webshopId: does not match the webshop in the address',
  noOrderNumber: 'order.orderNumber: must not be empty',
  alreadyChosen: 'A choice was already recorded for this order.',
  signedOnly: 'This shop accepts only signed order data.',
  badToken: 'This review token is unknown, expired or already used.',
  emailRequired: 'email: required, because the order data carried no e-mail address',
  tooMany: 'Too many requests. Please try again later.',
} as const;

/** Every embed response may be read by any page: the data is public and no credentials are involved. */
const cors: Middleware = async (ctx, next) => {
  ctx.set('Access-Control-Allow-Origin', '*');
  await next();
};

const preflight: Middleware = (ctx) => {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', 'Content-Type');
  ctx.set('Access-Control-Max-Age', '86400');
  ctx.status = 204;
};

function limited(limiter: RateLimiter, key: string): void {
  const wait = limiter.hit(key);
  if (wait > 0) throw new HttpError(429, EMBED_MESSAGES.tooMany, 'too_many_requests', { 'Retry-After': String(wait) });
}

/** The body as a JSON object whatever its Content-Type (a simple request without preflight works as well). */
async function readJson(ctx: Context): Promise<Fields> {
  return parseJsonObject(await readRawBody(ctx, BODY_LIMIT));
}

export function publicReview({ rating: r, verified }: PublicRating) {
  return {
    id: r.id,
    name: r.name,
    rating: r.rating,
    ratings: r.ratings,
    comment: r.comment,
    date: r.date,
    country: r.country,
    verified,
    reply: r.reply,
    reply_date: r.reply_date,
  };
}

export function registerEmbedApiRoutes(router: Router, services: Services): void {
  const { webshops, ratings, consents, popupTokens, reviews, config } = services;
  const popupLimiter = new RateLimiter(POPUP_POSTS_PER_MINUTE);
  const formAddressLimiter = new RateLimiter(EXPERIENCES_PER_HOUR_PER_ADDRESS, Date.now, 200_000, HOUR_MS);
  const formEmailLimiter = new RateLimiter(EXPERIENCES_PER_HOUR_PER_EMAIL, Date.now, 200_000, HOUR_MS);

  // Tokens expire after a day; without TTL indexes (FerretDB) they are removed by this job.
  services.scheduler.define('embed.tokens.cleanup', async () => void (await popupTokens.deleteExpired()), HOUR_MS);
  // Reviews nobody confirmed are removed after CONFIRMATION_DAYS (a sweep of the small queue of waiting reviews).
  services.scheduler.define(EXPIRY_JOB, async () => void (await expireUnconfirmed(services)), HOUR_MS);

  async function shopOf(ctx: Context): Promise<Webshop> {
    const shop = await webshops.get(idParam(ctx.params.id, 'webshop'));
    if (!shop) throw new HttpError(404, 'No such webshop.');
    return shop;
  }

  /** The order of the body, checked against the shop in the path. */
  function orderOf(shop: Webshop, raw: Parameters<typeof orderData>[0]): OrderData {
    const order = orderData(raw);
    if (order.webshopId !== shop.id) throw new HttpError(400, EMBED_MESSAGES.otherShop);
    if (!order.orderNumber) throw new HttpError(400, EMBED_MESSAGES.noOrderNumber);
    return order;
  }

  for (const path of [PATHS.verify, PATHS.consent, PATHS.review, PATHS.experiences]) router.options(path, preflight);

  router.get(PATHS.shop, cors, async (ctx) => {
    const shop = await shopOf(ctx);
    const [summary, published] = await Promise.all([ratings.summary(shop.id), ratings.publishedPage(shop.id, 0, 1)]);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = {
      id: shop.id,
      name: shop.name,
      url: shop.url,
      page: `${config.baseUrl}/webshops/${shop.id}`,
      logo: shop.logo,
      language: mainLanguage(shop),
      languages: enabledLanguages(shop),
      score: summary.rating_average,
      count: summary.amount,
      badges: badgesFor(shop, published, services.now()),
      settings: { ...shop.sidebar },
      // The app shows no consent dialog for an unsigned order-data element when the shop requires signed data.
      require_signed_order_data: requiresSignedOrderData(shop),
    };
  });

  router.get(PATHS.reviews, cors, async (ctx) => {
    const shop = await shopOf(ctx);
    const offset = pagingParam(ctx.query.offset, 0, 1_000_000_000, 0);
    const limit = pagingParam(ctx.query.limit, 1, 20, 5);
    if (offset === undefined) throw new HttpError(400, 'offset: must be a whole number of at least 0');
    if (limit === undefined) throw new HttpError(400, 'limit: must be a whole number from 1 to 20');
    const page = await ratings.publishedPage(shop.id, offset, limit);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = { total: page.total, reviews: page.reviews.map(publicReview) };
  });

  // Called for signed elements only, before the dialog: it checks and stores nothing (see docs/decisions.md).
  router.post(PATHS.verify, cors, async (ctx) => {
    limited(popupLimiter, clientKey(ctx.ip));
    const shop = await shopOf(ctx);
    const body = validate(verifySchema, await readJson(ctx), 400);
    const order = orderOf(shop, body.order);
    const valid = verifyOrderSignature(signedFields(body.order), body.signature, shop.id, shop.code);
    // Only a signed receipt is final for a signed order (an unsigned one may be replaced by the customer's choice);
    // a wrong signature learns nothing about the order.
    const existing = valid ? await consents.get(shop.id, order.orderNumber) : null;
    ctx.body = { valid, recorded: existing?.signed === true };
  });

  router.post(PATHS.consent, cors, async (ctx) => {
    limited(popupLimiter, clientKey(ctx.ip));
    const shop = await shopOf(ctx);
    const body = validate(consentSchema, await readJson(ctx), 400);
    const order = orderOf(shop, body.order);
    const signed = body.signature !== undefined;
    if (signed && !verifyOrderSignature(signedFields(body.order), body.signature!, shop.id, shop.code)) {
      throw new HttpError(403, EMBED_MESSAGES.wrongSignature);
    }
    if (!signed && requiresSignedOrderData(shop)) throw new HttpError(403, EMBED_MESSAGES.signedOnly);
    // A signed choice stands once made. Unsigned choices stand per address (consents/store.ts): one posted by
    // someone who guessed the order number does not shut out the customer's own.
    if (signed && (await consents.get(shop.id, order.orderNumber))) throw new HttpError(409, EMBED_MESSAGES.alreadyChosen);

    const language = normalizeLanguage(body.language) ?? mainLanguage(shop);
    const { receipt, recorded, dropped } = await consents.recordChoice({
      shopId: shop.id,
      order: order.orderNumber,
      email: order.email,
      firstName: order.firstName,
      inviteDelay: order.inviteDelay,
      choice: body.choice,
      language,
      signed,
      textVersion: body.textVersion,
    });
    if (dropped > 0) services.log.info({ shopId: shop.id, dropped }, 'oldest unsigned consent receipts dropped (per-shop cap)');
    if (!recorded) throw new HttpError(409, EMBED_MESSAGES.alreadyChosen);
    // The signed choice supersedes unsigned ones: the review tokens issued for them stop working.
    if (signed && (await consents.forOrder(shop.id, order.orderNumber)).unsigned > 0) {
      await popupTokens.revokeUnsigned(shop.id, order.orderNumber);
    }

    const reviewToken =
      body.choice === 'write_now'
        ? await popupTokens.issue({
            shopId: shop.id,
            order: order.orderNumber,
            email: receipt.email,
            firstName: order.firstName,
            inviteDelay: order.inviteDelay,
            signed,
            language,
            consentCreated: receipt.created,
          })
        : undefined;
    ctx.status = 201;
    ctx.body = { recorded: true, signed, ...(reviewToken ? { reviewToken } : {}) };
  });

  router.post(PATHS.review, cors, async (ctx) => {
    limited(popupLimiter, clientKey(ctx.ip));
    const shop = await shopOf(ctx);
    const body = validate(popupReviewSchema, await readJson(ctx), 400);
    const token = await popupTokens.peek(shop.id, body.reviewToken);
    if (!token) throw new HttpError(403, EMBED_MESSAGES.badToken);
    // Issued before the shop began to require signed order data: it no longer writes an unsigned review.
    if (!token.signed && requiresSignedOrderData(shop)) throw new HttpError(403, EMBED_MESSAGES.signedOnly);
    const email = token.email || body.email || '';
    if (!email) throw new HttpError(400, EMBED_MESSAGES.emailRequired);
    // Unless the shop signed the address, it is the requester's word: the limit of e-mails to typed addresses.
    if (!token.signed || !token.email) await services.recipientLimit.admit(email);
    if (!(await popupTokens.claim(token))) throw new HttpError(403, EMBED_MESSAGES.badToken);

    const trust = popupTrust(token.signed, token.consentCreated, token.inviteDelay);
    const review = await reviews.create(shop.id, {
      name: body.name,
      email,
      rating: body.rating,
      ratings: body.ratings,
      comment: body.comment,
      country: body.country,
      language: token.language,
      order: token.order,
      source: 'popup',
      quarantine: trust.quarantine,
      verified: trust.verified,
      editToken: trust.status === 'published' ? newSecret() : null,
      editMailDue: trust.editMailDue,
      confirmToken: trust.status === 'published' ? null : newSecret(),
    });
    if (trust.status !== 'published') {
      // The receipt no longer counts towards the shop's cap while its review waits; the review expires unconfirmed.
      const receipt = await consents.attachReview(token, review.id);
      await awaitConfirmation(services, review, { receipt, consentCreated: token.consentCreated, inviteDelay: token.inviteDelay });
    }
    services.scheduler.trigger(MAIL_JOB);
    ctx.status = 201;
    ctx.body = { status: trust.status, id: review.id };
  });

  router.post(PATHS.experiences, cors, async (ctx) => {
    limited(popupLimiter, clientKey(ctx.ip));
    limited(formAddressLimiter, clientKey(ctx.ip));
    const shop = await shopOf(ctx);
    const raw = await readJson(ctx);
    // A bot that filled the hidden field is told what a person is told, and nothing is stored.
    if (isHoneypotFilled(raw)) {
      ctx.status = 202;
      ctx.body = { status: 'pending_confirmation' };
      return;
    }
    const body = validate(experienceSchema, raw, 400);
    limited(formEmailLimiter, `${shop.id}:${body.email.toLowerCase()}`);
    await services.recipientLimit.admit(body.email);
    const review = await reviews.create(shop.id, {
      name: body.name,
      email: body.email,
      rating: body.rating,
      ratings: body.ratings,
      comment: body.comment,
      country: body.country,
      language: normalizeLanguage(body.language) ?? mainLanguage(shop),
      source: 'form',
      quarantine: true,
      verified: false,
      confirmToken: newSecret(),
    });
    await awaitConfirmation(services, review, NO_CONSENT);
    services.scheduler.trigger(MAIL_JOB);
    ctx.status = 202;
    ctx.body = { status: 'pending_confirmation' };
  });
}
