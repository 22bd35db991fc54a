// The JSON API the shopper embeds call from shops' pages (the embed issue's contract, items 1–6): shop data and
// reviews for the sidebar and pop-ups, the order check and consent of the Privacy First pop-up, the review written
// in it, and the serviceAddReview form. Every call is cross-site: CORS `*` without credentials, never a cookie
// (declared for the embed's routes in server/routes.ts). Below it, the routes of the embed's files (assets.ts), of
// the demo shop pages (demo.ts) and of the sidebar preview the dashboard frames (preview.ts).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { parseJsonObject, readRawBody, type Fields } from '../http/body.js';
import { HttpError, sendError } from '../http/errors.js';
import { byClientAddress, clientKey } from '../http/client-key.js';
import { rateLimit, RateLimiter } from '../http/rate-limit.js';
import { idParam, validate } from '../http/validate.js';
import { verifyOrderSignature } from '../consents/signature.js';
import { checkSignedOrder } from '../consents/service.js';
import { normalizeLanguage } from '../languages.js';
import { publicPageUrl } from '../links.js';
import type { PublicRating } from '../ratings/read-model.js';
// The answers' shapes, shared with the embed that reads them.
import type {
  ConsentAnswer,
  EmbedReview,
  ReviewAnswer,
  ReviewsPage,
  Shop,
  VerifyAnswer,
} from '../../embed/shared/api-types.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { enabledLanguages, mainLanguage, requiresSignedOrderData } from '../webshops/rules.js';
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
import { noteNetworkSignal, recordPopupChoice, writeFormReview, writePopupReview } from '../reviews/publication.js';
import { isExperienceMonth } from '../reviews/experience.js';
import { badgesFor } from '../reviews/rules.js';
import { readFormWithFiles } from '../http/upload.js';
import { PHOTO_LIMITS } from '../photos/detect.js';
import { attachUploads, discardUploads, receivePhoto, type ReceivedPhoto } from '../photos/service.js';
import { PHOTO_STRINGS, refusalMessage } from '../photos/strings.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLoopbackRequest } from '../http/local.js';
import { findDemoShop } from '../webshops/demo.js';
import { requireWebshop } from '../webshops/service.js';
import { embedBuild, IMMUTABLE, JS, JSON_TYPE, LOADER_CACHE, sendAsset } from './assets.js';
import { globalsJs, HOST_PAGES_DIR, renderHostPage, snippetJs, strictCsp, type HostContext } from './demo.js';
import { sidebarPreview } from './preview.js';
import { admitFormReview, EMBED_MESSAGES, redeemPopupToken } from './service.js';

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
  photos: '/embed/:id/photos',
} as const;

/** The body as a JSON object whatever its Content-Type (a simple request without preflight works as well). */
async function readJson(ctx: Context): Promise<Fields> {
  return parseJsonObject(await readRawBody(ctx, BODY_LIMIT));
}

function publicReview({ rating: r, verified }: PublicRating): EmbedReview {
  return {
    id: r.id,
    name: r.name,
    rating: r.rating,
    ratings: r.ratings,
    comment: r.comment,
    date: r.date,
    country: r.country,
    verified,
    // The shopper-facing label and the policy page's wording follow these (issue 11).
    origin: r.origin,
    incentivised: r.incentivised,
    imported_from: r.imported_from,
    reply: r.reply,
    reply_date: r.reply_date,
    // Issue 20: shown as thumbnails that open the large photo in a new tab.
    ...(r.photos.length ? { photos: r.photos } : {}),
  };
}

export function registerEmbedApiRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'config'
    | 'confirmations'
    | 'consents'
    | 'log'
    | 'now'
    | 'photoStorage'
    | 'photos'
    | 'popupTokens'
    | 'ratings'
    | 'recipientLimit'
    | 'reviews'
    | 'scheduler'
    | 'signals'
    | 'webshops'
  >,
): void {
  const { ratings, config } = services;
  const popupLimiter = new RateLimiter(POPUP_POSTS_PER_MINUTE);
  const formAddressLimiter = new RateLimiter(EXPERIENCES_PER_HOUR_PER_ADDRESS, Date.now, 200_000, HOUR_MS);
  const formEmailLimiter = new RateLimiter(EXPERIENCES_PER_HOUR_PER_EMAIL, Date.now, 200_000, HOUR_MS);
  const popupLimit = rateLimit(popupLimiter, byClientAddress);
  const formAddressLimit = rateLimit(formAddressLimiter, byClientAddress);

  const shopOf = (ctx: Context): Promise<Webshop> => requireWebshop(services, idParam(ctx.params.id, 'webshop'));

  /** The order of the body, checked against the shop in the path. */
  function orderOf(shop: Webshop, raw: Parameters<typeof orderData>[0]): OrderData {
    const order = orderData(raw);
    if (order.webshopId !== shop.id) throw new HttpError(400, EMBED_MESSAGES.otherShop);
    if (!order.orderNumber) throw new HttpError(400, EMBED_MESSAGES.noOrderNumber);
    return order;
  }

  // Issue 20: one photo a request, before the review (the pop-up uploads each file as it sends the review), checked
  // from its bytes and streamed to storage like the review page's; an upload no review takes goes after an hour.
  router.post(PATHS.photos, popupLimit, async (ctx) => {
    const shop = await shopOf(ctx);
    if (!ctx.is('multipart/form-data'))
      throw new HttpError(415, 'Send the photo as multipart/form-data (field photo).');
    const lang = normalizeLanguage(String(ctx.query.lang ?? '')) ?? mainLanguage(shop);
    let stored: string | null = null;
    let received: ReceivedPhoto | null = null;
    try {
      const read = await readFormWithFiles(
        ctx,
        { fieldBytes: 1024, maxFiles: 1, fileBytes: PHOTO_LIMITS.bytes },
        async (file): Promise<ReceivedPhoto | null> => {
          if (file.field !== 'photo' || received) return null;
          received = await receivePhoto(services, file, shop.id, clientKey(ctx.ip));
          if (received.ok) stored = received.id;
          return received;
        },
      );
      if (read.extraFiles > 0) throw new HttpError(400, PHOTO_STRINGS[lang].tooMany, 'too_many');
    } catch (err) {
      if (stored) await discardUploads(services, [stored]);
      throw err;
    }
    const answer = received as ReceivedPhoto | null;
    if (!answer) throw new HttpError(400, 'photo: a file is required');
    if (!answer.ok) {
      throw new HttpError(
        answer.reason === 'limited' ? 429 : 400,
        refusalMessage(PHOTO_STRINGS[lang], answer.reason, answer.filename),
        answer.reason,
      );
    }
    ctx.status = 201;
    ctx.body = { id: answer.id };
  });

  router.get(PATHS.shop, async (ctx) => {
    const shop = await shopOf(ctx);
    const [summary, published] = await Promise.all([ratings.summary(shop.id), ratings.publishedPage(shop.id, 0, 1)]);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = {
      id: shop.id,
      name: shop.name,
      url: shop.url,
      page: publicPageUrl(config.baseUrl, shop.id),
      logo: shop.logo,
      language: mainLanguage(shop),
      languages: enabledLanguages(shop),
      score: summary.rating_average,
      count: summary.amount,
      badges: badgesFor(shop, published, services.now()),
      settings: { ...shop.sidebar },
      // The app shows no consent dialog for an unsigned order-data element when the shop requires signed data.
      require_signed_order_data: requiresSignedOrderData(shop),
    } satisfies Shop;
  });

  router.get(PATHS.reviews, async (ctx) => {
    const shop = await shopOf(ctx);
    const offset = pagingParam(ctx.query.offset, 0, 1_000_000_000, 0);
    const limit = pagingParam(ctx.query.limit, 1, 20, 5);
    if (offset === undefined) throw new HttpError(400, 'offset: must be a whole number of at least 0');
    if (limit === undefined) throw new HttpError(400, 'limit: must be a whole number from 1 to 20');
    const page = await ratings.publishedPage(shop.id, offset, limit);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = { total: page.total, reviews: page.reviews.map(publicReview) } satisfies ReviewsPage;
  });

  // Called for signed elements only, before the dialog: it checks and stores nothing (see docs/decisions.md).
  router.post(PATHS.verify, popupLimit, async (ctx) => {
    const shop = await shopOf(ctx);
    const body = validate(verifySchema, await readJson(ctx), 400);
    const order = orderOf(shop, body.order);
    const checked = await checkSignedOrder(
      services,
      shop,
      { number: order.orderNumber, fields: signedFields(body.order) },
      body.signature,
    );
    ctx.body = checked satisfies VerifyAnswer;
  });

  router.post(PATHS.consent, popupLimit, async (ctx) => {
    const shop = await shopOf(ctx);
    const body = validate(consentSchema, await readJson(ctx), 400);
    const order = orderOf(shop, body.order);
    const signed = body.signature !== undefined;
    if (signed && !verifyOrderSignature(signedFields(body.order), body.signature!, shop.id, shop.code)) {
      throw new HttpError(403, EMBED_MESSAGES.wrongSignature);
    }
    if (!signed && requiresSignedOrderData(shop)) throw new HttpError(403, EMBED_MESSAGES.signedOnly);
    const language = normalizeLanguage(body.language) ?? mainLanguage(shop);
    const result = await recordPopupChoice(services, {
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
    if (!result.recorded) throw new HttpError(409, EMBED_MESSAGES.alreadyChosen);
    const { reviewToken } = result;
    ctx.status = 201;
    ctx.body = { recorded: true, signed, ...(reviewToken ? { reviewToken } : {}) } satisfies ConsentAnswer;
  });

  router.post(PATHS.review, popupLimit, async (ctx) => {
    const shop = await shopOf(ctx);
    const body = validate(popupReviewSchema, await readJson(ctx), 400);
    const { token, email, photos } = await redeemPopupToken(services, shop, body);
    const written = {
      name: body.name,
      rating: body.rating,
      ratings: body.ratings,
      comment: body.comment,
      country: body.country,
    };
    const { review, status } = await writePopupReview(services, token, { ...written, photos }, email);
    await attachUploads(services, review);
    await noteNetworkSignal(services, review, ctx.ip, ctx.get('user-agent'));
    ctx.status = 201;
    ctx.body = { status, id: review.id } satisfies ReviewAnswer;
  });

  router.post(PATHS.experiences, popupLimit, formAddressLimit, async (ctx) => {
    const shop = await shopOf(ctx);
    const raw = await readJson(ctx);
    // A bot that filled the hidden field is told what a person is told, and nothing is stored.
    if (isHoneypotFilled(raw)) {
      ctx.status = 202;
      ctx.body = { status: 'pending_confirmation' } satisfies ReviewAnswer;
      return;
    }
    const body = validate(experienceSchema, raw, 400);
    if (body.experience_date !== undefined && !isExperienceMonth(body.experience_date, services.now())) {
      throw new HttpError(400, 'experience_date: a month from 2000 up to the current one');
    }
    const claimed = await admitFormReview(services, shop.id, body, formEmailLimiter);
    const review = await writeFormReview(services, shop.id, {
      photos: claimed,
      name: body.name,
      email: body.email,
      rating: body.rating,
      ratings: body.ratings,
      comment: body.comment,
      country: body.country,
      language: normalizeLanguage(body.language) ?? mainLanguage(shop),
      experienceMonth: body.experience_date,
    });
    await attachUploads(services, review);
    await noteNetworkSignal(services, review, ctx.ip, ctx.get('user-agent'));
    ctx.status = 202;
    ctx.body = { status: 'pending_confirmation' } satisfies ReviewAnswer;
  });
}

/**
 * The embed's files: the loader, the app and its second bundle, the strings, the product block (assets.ts reads and
 * compresses them).
 */
export function registerEmbedAssetRoutes(router: Router, services: Pick<Services, 'config' | 'log'>): void {
  const current = embedBuild(services);
  router.get('/sidebar.js', (ctx) => sendAsset(ctx, current().loader, JS, LOADER_CACHE));

  // An older loader (still in a cache) may ask for an older version: it gets the current files, cached briefly.
  const cacheFor = (version: string | undefined) => (version === current().version ? IMMUTABLE : LOADER_CACHE);

  router.get('/embed/assets/:version/app.js', (ctx) => sendAsset(ctx, current().app, JS, cacheFor(ctx.params.version)));
  router.get('/embed/assets/:version/form.js', (ctx) =>
    sendAsset(ctx, current().form, JS, cacheFor(ctx.params.version)),
  );

  router.get('/embed/assets/:version/strings/:file', (ctx) => {
    const lang = /^([a-z]{2})\.json$/.exec(ctx.params.file ?? '')?.[1];
    const strings = lang ? current().strings.get(lang) : undefined;
    if (!strings) throw new HttpError(404, 'No such language.');
    sendAsset(ctx, strings, JSON_TYPE, cacheFor(ctx.params.version));
  });

  router.get('/embed/assets/:version/product.js', (ctx) =>
    sendAsset(ctx, current().product, JS, cacheFor(ctx.params.version)),
  );
}

/** /demo/ on the service itself (never in production, only to this machine): the host pages with the demo shop. */
export function registerEmbedDemoRoutes(router: Router, services: Pick<Services, 'config' | 'webshops'>): void {
  const { config } = services;
  if (config.production) return;
  // Relative links between the pages need the trailing slash (the router matches /demo and /demo/ alike).
  router.get('/demo', (ctx, next) => {
    if (!isLoopbackRequest(ctx, config.baseUrl)) return sendError(ctx, 404, 'Not found.');
    return ctx.path === '/demo' ? ctx.redirect('/demo/') : next();
  });
  router.get('/demo/{:page}', async (ctx) => {
    if (!isLoopbackRequest(ctx, config.baseUrl)) return sendError(ctx, 404, 'Not found.');
    if (ctx.params.page === 'shop.css') {
      ctx.type = 'text/css; charset=utf-8';
      ctx.body = readFileSync(join(HOST_PAGES_DIR, 'shop.css'));
      return;
    }
    const query = new URLSearchParams(ctx.querystring);
    const shop = await findDemoShop(services);
    if (!shop) {
      throw new HttpError(
        404,
        'There is no demo shop: it is created on the first start with an empty database (DEMO_SHOP=1).',
      );
    }
    // Where the browser reached us: a local name, and no forwarding header was there to say otherwise (see above).
    // (Koa 3's ctx.origin is the Origin header.)
    const self = `${ctx.protocol}://${ctx.host}`;
    const host: HostContext = { service: self, shopId: shop.id, apiCode: shop.code, brand: config.brand, query };
    const page = ctx.params.page ?? 'index.html';
    if (page === 'snippet.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = `${globalsJs(host)}\n${snippetJs(host)}`;
      return;
    }
    const body = renderHostPage(page, host);
    if (body === undefined) throw new HttpError(404, 'No such demo page.');
    if (page === 'csp.html') ctx.set('Content-Security-Policy', strictCsp(self));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = body;
  });
}

/** /webshops/{id}/sidebar-preview: the shop's real sidebar on a sample page, with the query's settings (preview.ts). */
export function registerSidebarPreviewRoute(router: Router, services: Pick<Services, 'config' | 'webshops'>): void {
  router.get('/webshops/:id/sidebar-preview', async (ctx) => {
    const shop = await requireWebshop(services, idParam(ctx.params.id, 'webshop'));
    const { html, csp } = sidebarPreview(services.config, shop, new URLSearchParams(ctx.querystring));
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = html;
  });
}
