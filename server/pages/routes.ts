// The server-rendered shopper pages:
// - /review/{token}: the invitation e-mail's link; one verified review of the shop and the order's products;
// - /edit/{token}: the writer changes their review; /edit/{token}/delete and /renew (writer.ts) delete it or ask
//   for a new link when it expired;
// - /confirm/{token}: the writer confirms a review that waits for it (GET shows a button, POST publishes);
// - /webshops/{id}: the shop's public page with its reviews and schema.org markup.
// The token in the address is the credential: no cookies, so no cross-site request can borrow a session. A link
// that no longer works answers a readable page with 404 or 410, never an error document. Review and edit links
// expire (expiry.ts); the page then says so, and what the customer can still do.
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { readFields, type Fields } from '../http/body.js';
import { readFormWithFiles } from '../http/upload.js';
import { clientKey } from '../http/client-key.js';
import { PHOTO_LIMITS } from '../photos/detect.js';
import { PHOTO_STRINGS, refusalMessage } from '../photos/strings.js';
import { attachUploads, discardUploads, pendingPhotos, receivePhoto, type ReceivedPhoto } from '../photos/service.js';
import { awaitsConfirmation, badgesFor } from '../reviews/rules.js';
import { noteNetworkSignal, releaseReview, writeInvitationReview } from '../reviews/publication.js';
import { publicPageUrl } from '../links.js';
import { normalizeLanguage, type Language } from '../languages.js';
import type { Review } from '../reviews/model.js';
import { noSubRatings } from '../reviews/rules.js';
import type { Services } from '../services.js';
import { mainLanguage } from '../webshops/rules.js';
import { inlineScript } from '../http/inline-script.js';
import { STYLE_HASH } from './components.js';
import { applyListing, DEFAULT_LISTING, isDefaultListing, listingQuery, readListing } from './listing.js';
import {
  formProblems,
  photoField,
  readPhotoAlts,
  readReviewForm,
  type FieldProblem,
  type ReviewFormValues,
} from './form.js';
import { COUNTRIES, countryOptions, sendHtml } from './html.js';
import { editLinkSince, EDIT_LINK_DAYS, linkExpired, REVIEW_LINK_DAYS } from './expiry.js';
import { DEFAULT_COUNTRY, stringsFor } from './strings.js';
import { confirmPage, editPage, messagePage, reviewPage, shopPage, singleReviewPage, type PageFrame } from './views.js';
import { toRating } from '../reviews/rating.js';
import {
  deleteByWriter,
  deleteLinkFor,
  editablePhotos,
  editedPhotos,
  editLinkExpired,
  emailNewEditLink,
  expiredEditLinkPage,
  readPhotoEdit,
} from './writer.js';
import { currentAltField, type CurrentPhoto } from './components.js';
import { photoPath, publicPhotos } from '../reviews/photos.js';
import { WRITER_STRINGS } from './writer-strings.js';
import { deleteConfirmPage } from './writer-views.js';
import {
  openReviewByLink,
  openReviewLink,
  publishedReviewOf,
  reviewLinkExpired,
  saveWriterEdit,
  type WriterEdit,
} from './service.js';
import { findWebshop } from '../webshops/service.js';

const FORM_LIMIT = 64 * 1024;
const PHOTO_SLOT = /^photo_[1-5]$/;
const REVIEWS_PER_PAGE = 10;
/** The read model holds shops up to this many reviews in memory; larger ones are listed newest first only. */
const LISTING_MAX = 50_000;

export function registerPageRoutes(
  router: Router,
  services: Pick<
    Services,
    | 'audit'
    | 'config'
    | 'confirmations'
    | 'invitations'
    | 'log'
    | 'now'
    | 'outbox'
    | 'photoStorage'
    | 'photos'
    | 'ratings'
    | 'recipientLimit'
    | 'reviews'
    | 'scheduler'
    | 'signals'
    | 'webshops'
  >,
): void {
  const { config, ratings } = services;
  // The shop page's sorts and filters from the database's indexes only on MongoDB: FerretDB (the embedded database)
  // scans for every filter, where the shop's reviews in memory answer at once.
  const listingFromDatabase = config.mongodbUri !== undefined;

  const frameFor = (lang: Language): PageFrame => ({ t: stringsFor(lang), lang, brandName: config.brandName });
  const send = (ctx: Context, status: number, html: string, secret = true) =>
    sendHtml(ctx, status, html, { secret, styleHash: STYLE_HASH, scriptHash: inlineScript('review-form').hash });

  /** Without a record we know no language but the browser's. */
  const browserFrame = (ctx: Context) => {
    const preferred = ctx
      .acceptsLanguages()
      .map(normalizeLanguage)
      .find((l) => l !== undefined);
    return frameFor(preferred ?? 'en');
  };

  function unknownLink(ctx: Context, frame = browserFrame(ctx)): void {
    send(ctx, 404, messagePage(frame, frame.t.unknownTitle, frame.t.unknownBody));
  }

  /**
   * The review form as posted: urlencoded (no photos), or multipart with up to 5 photo files, each checked and stored
   * as it arrives (photos/service.ts). Uploads of a body that fails half-way are removed before the error is answered.
   */
  async function readPhotoForm(
    ctx: Context,
    shopId: number,
  ): Promise<{ fields: Fields; photos: ReceivedPhoto[]; extraFiles: number }> {
    if (!ctx.is('multipart/form-data')) return { fields: await readFields(ctx, FORM_LIMIT), photos: [], extraFiles: 0 };
    const stored: string[] = [];
    const address = clientKey(ctx.ip);
    try {
      const read = await readFormWithFiles(
        ctx,
        { fieldBytes: FORM_LIMIT, maxFiles: PHOTO_LIMITS.perReview, fileBytes: PHOTO_LIMITS.bytes },
        async (file): Promise<ReceivedPhoto | null> => {
          if (!PHOTO_SLOT.test(file.field)) return null;
          const received = await receivePhoto(services, file, shopId, address);
          if (received.ok) stored.push(received.id);
          return received;
        },
      );
      return { fields: read.fields, photos: read.files.filter((f) => f !== null), extraFiles: read.extraFiles };
    } catch (err) {
      await discardUploads(services, stored);
      throw err;
    }
  }

  // --- /review/{token} ---

  async function reviewRoute(ctx: Context): Promise<void> {
    const link = await openReviewLink(services, ctx.params.token ?? '');
    if (!link) return unknownLink(ctx);
    const { invitation, shopName: name } = link;
    const frame = frameFor(invitation.language);
    if (invitation.used) return send(ctx, 410, messagePage(frame, frame.t.usedTitle, frame.t.usedBody));
    if (await reviewLinkExpired(services, invitation)) {
      return send(
        ctx,
        410,
        messagePage(frame, frame.t.reviewExpiredTitle, frame.t.reviewExpiredBody(name, REVIEW_LINK_DAYS)),
      );
    }

    const products = invitation.products.map((p) => p.name);
    const form = (values: ReviewFormValues, problems = formProblems(values, frame.t, COUNTRIES)) => ({
      values,
      problems,
      products,
      countries: countryOptions(frame.lang),
      photos: PHOTO_STRINGS[frame.lang],
    });

    if (ctx.method === 'GET') {
      const initial: ReviewFormValues = {
        rating: null,
        ratings: noSubRatings(),
        comment: '',
        name: invitation.customer_name,
        country: DEFAULT_COUNTRY[frame.lang],
        products: products.map(() => ({ rating: null, content: '' })),
      };
      return send(ctx, 200, reviewPage(frame, name, form(initial, [])));
    }

    const posted = await readPhotoForm(ctx, invitation.shopId);
    const values = { ...readReviewForm(posted.fields, products.length), photoAlts: readPhotoAlts(posted.fields, 5) };
    const p = PHOTO_STRINGS[frame.lang];
    const photoProblems = posted.photos.flatMap((r) =>
      r.ok ? [] : [{ field: r.field, message: refusalMessage(p, r.reason, r.filename) }],
    );
    if (posted.extraFiles > 0) photoProblems.push({ field: photoField(1), message: p.tooMany });
    const filled = form(values);
    filled.problems.push(...photoProblems);
    const uploads = posted.photos.flatMap((r) => (r.ok ? [r] : []));
    if (filled.problems.length) {
      // The files cannot be given back to the form: the writer picks them again, the rest of the review is kept.
      await discardUploads(
        services,
        uploads.map((u) => u.id),
      );
      return send(ctx, 400, reviewPage(frame, name, filled));
    }

    const review = await writeInvitationReview(services, invitation, {
      name: values.name,
      rating: values.rating!,
      ratings: values.ratings,
      comment: values.comment || null,
      country: values.country,
      products: values.products,
      photos: pendingPhotos(
        uploads.map((u) => ({ id: u.id, alt: values.photoAlts[Number(u.field.slice('photo_'.length)) - 1] ?? '' })),
      ),
    });
    if (!review) {
      await discardUploads(
        services,
        uploads.map((u) => u.id),
      );
      return send(ctx, 410, messagePage(frame, frame.t.usedTitle, frame.t.usedBody));
    }
    await attachUploads(services, review);
    await noteNetworkSignal(services, review, ctx.ip, ctx.get('user-agent'));
    const editToken = review.editToken!;
    send(
      ctx,
      200,
      messagePage(frame, frame.t.thanksTitle, frame.t.thanksBody(name), {
        href: `/edit/${editToken}`,
        text: frame.t.editLink,
      }),
    );
  }

  router.get('/review/:token', reviewRoute);
  router.post('/review/:token', reviewRoute);

  // --- /edit/{token} ---

  async function editRoute(ctx: Context): Promise<void> {
    const link = await openReviewByLink(services, 'editToken', ctx.params.token ?? '');
    if (!link || link.shopName === null) return unknownLink(ctx);
    const { review, shopName: name } = link;
    const frame = frameFor(review.language);
    if (linkExpired(editLinkSince(review), EDIT_LINK_DAYS, services.now())) {
      return send(ctx, 410, expiredEditLinkPage(frame, name, ctx.params.token ?? ''));
    }
    const countries = countryOptions(frame.lang);
    const deleteLink = deleteLinkFor(frame.lang, ctx.params.token ?? '');
    const p = PHOTO_STRINGS[frame.lang];
    // The review's photos as the form shows them: thumbnails only while public (others answer 404).
    const current = (
      of: Review,
      edit?: { remove: ReadonlySet<string>; alts: ReadonlyMap<string, string> },
    ): CurrentPhoto[] => {
      const shown = new Set(publicPhotos(of, '').map((x) => x.thumb_url));
      return editablePhotos(of).map((photo) => {
        const thumb = photoPath(photo.id, true);
        return {
          id: photo.id,
          alt: edit?.alts.get(photo.id) ?? photo.alt,
          thumb: of.published && shown.has(thumb) ? thumb : null,
          remove: edit?.remove.has(photo.id) ?? false,
        };
      });
    };
    const page = (values: ReviewFormValues, problems: FieldProblem[], saved: boolean, photos = current(review)) =>
      editPage(
        frame,
        name,
        { values, problems, products: [], countries, photos: p, current: photos },
        saved,
        deleteLink,
      );

    if (ctx.method === 'GET') {
      const values: ReviewFormValues = {
        rating: review.rating,
        ratings: { ...review.ratings },
        comment: review.comment ?? '',
        name: review.name,
        country: review.country,
        products: [],
      };
      return send(ctx, 200, page(values, [], false));
    }

    const posted = await readPhotoForm(ctx, review.shopId);
    const uploads = posted.photos.flatMap((r) => (r.ok ? [r] : []));
    const discard = () =>
      discardUploads(
        services,
        uploads.map((u) => u.id),
      );
    const values = { ...readReviewForm(posted.fields, 0), photoAlts: readPhotoAlts(posted.fields, 5) };
    const edit = readPhotoEdit(posted.fields, editablePhotos(review));
    const problems = formProblems(values, frame.t, COUNTRIES);
    for (const [id, alt] of edit.alts) {
      if (alt.length > PHOTO_LIMITS.alt)
        problems.push({ field: currentAltField(id), message: frame.t.tooLong(PHOTO_LIMITS.alt) });
    }
    problems.push(
      ...posted.photos.flatMap((r) =>
        r.ok ? [] : [{ field: r.field, message: refusalMessage(p, r.reason, r.filename) }],
      ),
    );
    const added = pendingPhotos(
      uploads.map((u) => ({ id: u.id, alt: values.photoAlts[Number(u.field.slice('photo_'.length)) - 1] ?? '' })),
    );
    const next = editedPhotos(review.photos ?? [], { ...edit, added });
    if (next.tooMany || posted.extraFiles > 0) problems.push({ field: photoField(1), message: p.tooMany });
    if (problems.length) {
      // The files cannot be given back to the form: the writer picks them again, the rest is kept as typed.
      await discard();
      return send(ctx, 400, page(values, problems, false, current(review, edit)));
    }
    const changes: WriterEdit = {
      rating: values.rating!,
      ratings: values.ratings,
      comment: values.comment || null,
      name: values.name,
      country: values.country,
      ...(JSON.stringify(next.photos) === JSON.stringify(review.photos ?? []) ? {} : { photos: next.photos }),
    };
    const written = await saveWriterEdit(services, review, changes);
    if (!written) {
      await discard();
      return unknownLink(ctx, frame);
    }
    if (added.length) await attachUploads(services, { ...written, photos: added });
    send(ctx, 200, page({ ...values, photoAlts: [] }, [], true, current(written)));
  }

  router.get('/edit/:token', editRoute);
  router.post('/edit/:token', editRoute);

  // --- /edit/{token}/delete and /edit/{token}/renew: the writer's own review (writer.ts) ---

  /** Pages without the review form's script. */
  const sendPlain = (ctx: Context, status: number, html: string) =>
    sendHtml(ctx, status, html, { secret: true, styleHash: STYLE_HASH, scriptHash: "'none'" });

  /** The live review of an edit link and its shop's name, or the 404 page already answered. */
  async function writerLink(
    ctx: Context,
  ): Promise<{ review: Review; shopName: string; frame: PageFrame; token: string } | null> {
    const token = ctx.params.token ?? '';
    const link = await openReviewByLink(services, 'editToken', token);
    if (!link || link.shopName === null) {
      const frame = browserFrame(ctx);
      sendPlain(ctx, 404, messagePage(frame, frame.t.unknownTitle, frame.t.unknownBody));
      return null;
    }
    return { review: link.review, shopName: link.shopName, frame: frameFor(link.review.language), token };
  }

  async function deleteRoute(ctx: Context): Promise<void> {
    const found = await writerLink(ctx);
    if (!found) return;
    const { review, shopName: name, frame, token } = found;
    const w = WRITER_STRINGS[frame.lang];
    if (editLinkExpired(review, services.now())) return sendPlain(ctx, 410, expiredEditLinkPage(frame, name, token));
    if (ctx.method === 'GET') return sendPlain(ctx, 200, deleteConfirmPage(frame, w, name, token));
    if (!(await deleteByWriter(services, review)))
      return sendPlain(ctx, 404, messagePage(frame, frame.t.unknownTitle, frame.t.unknownBody));
    sendPlain(ctx, 200, messagePage(frame, w.deletedTitle, w.deletedBody(name)));
  }

  router.get('/edit/:token/delete', deleteRoute);
  router.post('/edit/:token/delete', deleteRoute);

  router.post('/edit/:token/renew', async (ctx) => {
    const found = await writerLink(ctx);
    if (!found) return;
    const { review, frame, token } = found;
    const w = WRITER_STRINGS[frame.lang];
    if (!editLinkExpired(review, services.now())) return ctx.redirect(`/edit/${token}`);
    const outcome = await emailNewEditLink(services, review, token);
    if (outcome === 'limited') return sendPlain(ctx, 429, messagePage(frame, frame.t.editExpiredTitle, w.renewLimited));
    if (outcome === 'gone') return sendPlain(ctx, 404, messagePage(frame, frame.t.unknownTitle, frame.t.unknownBody));
    sendPlain(ctx, 200, messagePage(frame, w.renewSentTitle, w.renewSentBody));
  });

  // --- /confirm/{token} ---

  async function confirmRoute(ctx: Context): Promise<void> {
    const link = await openReviewByLink(services, 'confirmToken', ctx.params.token ?? '');
    const review = link?.review;
    const name = link?.shopName ?? null;
    const frame = review ? frameFor(review.language) : browserFrame(ctx);
    const gone = () => send(ctx, 404, messagePage(frame, frame.t.confirmGoneTitle, frame.t.confirmGoneBody));
    if (!review || name === null || !awaitsConfirmation(review)) return gone();
    // GET changes nothing: mail scanners and link previews open it.
    if (ctx.method === 'GET') return send(ctx, 200, confirmPage(frame, name, review));
    if (!(await releaseReview(services, review))) return gone();
    send(ctx, 200, messagePage(frame, frame.t.confirmedTitle, frame.t.confirmedBody(name)));
  }

  router.get('/confirm/:token', confirmRoute);
  router.post('/confirm/:token', confirmRoute);

  // --- /webshops/{id} ---

  router.get('/webshops/:id', async (ctx: Context, next: Next) => {
    // Other /webshops/… routes (fetch_domain.json, widget_html, …) share the pattern: only digits are a shop page.
    const rawId = ctx.params.id ?? '';
    if (!/^\d{1,15}$/.test(rawId)) return next();
    const shop = await findWebshop(services, Number(rawId));
    if (!shop) {
      const frame = browserFrame(ctx);
      return send(ctx, 404, messagePage(frame, frame.t.shopNotFoundTitle, frame.t.shopNotFoundBody), false);
    }
    const askedLanguage = typeof ctx.query.lang === 'string' ? normalizeLanguage(ctx.query.lang) : undefined;
    const frame = frameFor(askedLanguage ?? mainLanguage(shop));
    const rawPage = typeof ctx.query.page === 'string' && /^\d{1,9}$/.test(ctx.query.page) ? Number(ctx.query.page) : 1;

    const summary = await ratings.summary(shop.id);
    const asked = readListing(ctx.query);
    // The shopper's order and filter (listing.ts). On the embedded database, from the shop's reviews held in memory;
    // a shop too large to hold (over 50,000 reviews) is then paged in the database, newest first, and offers no
    // choice. On MongoDB (MONGODB_URI), a query its indexes answer, for a shop of any size.
    const fromDatabase = listingFromDatabase && !isDefaultListing(asked);
    const all = isDefaultListing(asked) || fromDatabase ? null : await ratings.allPublished(shop.id);
    const listing = all || fromDatabase ? asked : DEFAULT_LISTING;
    const chosen = all ? applyListing(all.reviews, listing) : null;
    const matching = chosen ? chosen.length : fromDatabase ? await ratings.chosenCount(shop.id, listing) : null;
    // The summary's amount counts only the reviews in the score (INCENTIVISED_IN_SCORE): pages count them all.
    const published = all ? all.reviews.length : await ratings.publishedCount(shop.id);
    const total = matching ?? published;
    const pages = Math.max(1, Math.ceil(total / REVIEWS_PER_PAGE));
    const page = Math.min(Math.max(1, rawPage), pages);
    const from = (page - 1) * REVIEWS_PER_PAGE;
    const listed =
      all && chosen
        ? { reviews: chosen.slice(from, from + REVIEWS_PER_PAGE), total: all.reviews.length, verified: all.verified }
        : fromDatabase
          ? await ratings.chosenPage(shop.id, listing, from, REVIEWS_PER_PAGE)
          : await ratings.publishedPage(shop.id, from, REVIEWS_PER_PAGE);
    const hrefFor = (p: number) =>
      `/webshops/${shop.id}?${new URLSearchParams({ ...(askedLanguage ? { lang: askedLanguage } : {}), ...listingQuery(listing), page: String(p) })}`;
    const resetHref = `/webshops/${shop.id}${askedLanguage ? `?lang=${askedLanguage}` : ''}`;

    const html = shopPage(frame, {
      shop: { id: shop.id, name: shop.name, url: shop.url, logo: shop.logo },
      pageUrl: publicPageUrl(config.baseUrl, shop.id),
      score: summary.rating_average,
      count: summary.amount,
      badges: badgesFor(shop, listed, services.now()),
      reviews: listed.reviews,
      page,
      pages,
      hrefFor,
      selfHref: hrefFor(page),
      listing: {
        chosen: listing,
        matching,
        resetHref,
        lang: askedLanguage,
        offered: listingFromDatabase || all !== null || published <= LISTING_MAX,
      },
    });
    send(ctx, 200, html, false);
  });

  // --- /webshops/{id}/reviews/{rid}: one published review, the page Google's product review feed points to ---

  router.get('/webshops/:id/reviews/:rid', async (ctx: Context) => {
    const [shopId, reviewId] = [ctx.params.id, ctx.params.rid].map((v) =>
      /^\d{1,15}$/.test(v ?? '') ? Number(v) : null,
    );
    const found = shopId != null && reviewId != null ? await publishedReviewOf(services, shopId, reviewId) : null;
    if (!found) {
      const frame = browserFrame(ctx);
      return send(ctx, 404, messagePage(frame, frame.t.unknownTitle, frame.t.unknownBody), false);
    }
    const { shop, review } = found;
    const frame = frameFor(review.language ?? mainLanguage(shop));
    const html = singleReviewPage(frame, {
      shop: { id: shop.id, name: shop.name, url: shop.url, logo: shop.logo },
      rating: toRating(review, config.baseUrl),
      products: (review.products ?? [])
        .filter((p) => p.name || p.content)
        .map((p) => ({ name: p.name, rating: p.rating, content: p.content })),
      shopPageUrl: publicPageUrl(config.baseUrl, shop.id),
    });
    send(ctx, 200, html, false);
  });
}
