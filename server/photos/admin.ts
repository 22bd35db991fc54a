// Operator API for photos held for a look before they are shown (PHOTO_REVIEW=operator), whatever the review's score:
// - GET /admin/api/photos/held: the held photos, oldest first, with their review (a shop review, or an imported
//   product review: imports/product-review-store.ts), its shop, product and an excerpt of its text;
// - POST /admin/api/photos/{id}/decision {action: show|remove}: shows the photo with its review (public while the
//   review is published), or removes it (its files are deleted). Audited in the shop's trail.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { OPERATOR } from '../audit/changes.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { removedPhotos } from '../reviews/rules.js';
import type { Services } from '../services.js';
import { photoPath } from '../reviews/photos.js';
import { JOB } from '../jobs/names.js';
import type { PhotoHold } from './store.js';

export const photoDecision = z.object({ action: z.enum(['show', 'remove']) }).strict();

const PHOTO_ID = /^[A-Za-z0-9_-]{22}$/;

/** Enough of a review's words for the operator to place the photo; the whole text is on the review. */
const EXCERPT_CHARS = 200;

function excerpt(text: string | null | undefined): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT_CHARS ? flat : `${flat.slice(0, EXCERPT_CHARS - 1).trimEnd()}…`;
}

interface HeldContext {
  product: { id: string; name: string } | null;
  excerpt: string;
}

/** What the list shows of the photo's review (null fields when the review is gone meanwhile). */
async function contextOf(
  services: Pick<Services, 'importedPhotoOwners' | 'reviews'>,
  hold: PhotoHold,
): Promise<HeldContext> {
  if (hold.productReviewId !== undefined) {
    const review = await services.importedPhotoOwners.describe(hold.productReviewId);
    if (!review) return { product: null, excerpt: '' };
    return { product: review.product, excerpt: excerpt(review.text || review.title) };
  }
  const review = hold.reviewId === null ? null : await services.reviews.get(hold.reviewId);
  const first = review?.products?.[0];
  return {
    product: first ? { id: first.external_id, name: first.name } : null,
    excerpt: excerpt(review?.comment || review?.title),
  };
}

export function registerPhotoAdminRoutes(
  router: Router,
  services: Pick<
    Services,
    'audit' | 'config' | 'importedPhotoOwners' | 'photoStorage' | 'photos' | 'reviews' | 'scheduler'
  >,
): void {
  const admin = requireAdmin(services.config.adminToken);
  const { baseUrl } = services.config;

  router.get('/admin/api/photos/held', admin, async (ctx) => {
    const held = await services.photos.held(100);
    // One read per photo: the list is the operator's to-do (at most 100), not a hot path.
    const rows = [];
    for (const h of held) rows.push({ hold: h, ...(await contextOf(services, h)) });
    ctx.body = {
      photos: rows.map(({ hold: h, product, excerpt }) => ({
        id: h._id,
        review: h.reviewId,
        product_review: h.productReviewId ?? null,
        webshop: h.shopId,
        product,
        excerpt,
        held_since: h.created.toISOString(),
        // The public address answers only once the photo is shown: the operator looks through this one.
        url: `${baseUrl}/admin/api/photos/${h._id}`,
        public_url: baseUrl + photoPath(h._id),
      })),
    };
  });

  /** The large photo, whatever its state: what the operator looks at before deciding. */
  router.get('/admin/api/photos/:id', admin, async (ctx) => {
    const id = ctx.params.id ?? '';
    const file = PHOTO_ID.test(id) ? await services.photoStorage.read(`${id}.webp`) : null;
    if (!file) throw new HttpError(404, 'No such photo.');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'image/webp';
    ctx.length = file.bytes;
    ctx.body = file.stream;
  });

  router.post('/admin/api/photos/:id/decision', admin, async (ctx) => {
    const id = ctx.params.id ?? '';
    const { action } = validate(photoDecision, await readFields(ctx, 4096));
    const hold = PHOTO_ID.test(id) ? await services.photos.getHold(id) : null;
    if (!hold) throw new HttpError(404, 'No such held photo.');
    if (hold.productReviewId !== undefined) await decideProductPhoto(services, hold, hold.productReviewId, action);
    else await decideReviewPhoto(services, hold, action);
    ctx.body = { id, state: action === 'show' ? 'shown' : 'removed' };
  });
}

type Action = z.infer<typeof photoDecision>['action'];

/** A shop review's photo: its state on the review (a removal's files go with the review's write followers). */
async function decideReviewPhoto(
  services: Pick<Services, 'audit' | 'photos' | 'reviews'>,
  hold: PhotoHold,
  action: Action,
): Promise<void> {
  const id = hold._id;
  const written =
    hold.reviewId === null
      ? null
      : await services.reviews.update(hold.reviewId, (before) => ({
          photos: (before.photos ?? []).map((p) =>
            p.id !== id || p.state !== 'held'
              ? p
              : action === 'show'
                ? { ...p, state: 'shown' as const }
                : removedPhotos([p])[0]!,
          ),
        }));
  await services.photos.releaseHold(id);
  if (!written) throw new HttpError(404, 'The review was deleted meanwhile.');
  await audit(services, hold, action, `review:${hold.reviewId}`);
}

/**
 * An imported product review's photo (no write followers there): shown on the product surfaces while the review is
 * published, or removed and its files deleted by the photo worker's queued task.
 */
async function decideProductPhoto(
  services: Pick<Services, 'audit' | 'importedPhotoOwners' | 'photos' | 'scheduler'>,
  hold: PhotoHold,
  owner: string,
  action: Action,
): Promise<void> {
  const id = hold._id;
  const written = await services.importedPhotoOwners.decideHeldPhoto(
    owner,
    id,
    action === 'show' ? 'shown' : 'removed',
  );
  if (written && action === 'remove') {
    await services.photos.addTasks('delete', [id]);
    services.scheduler.trigger(JOB.photos);
  }
  await services.photos.releaseHold(id);
  if (!written) throw new HttpError(404, 'The review was removed meanwhile.');
  await audit(services, hold, action, `product_review:${owner}`);
}

function audit(services: Pick<Services, 'audit'>, hold: PhotoHold, action: Action, target: string): Promise<unknown> {
  return services.audit.record({
    shopId: hold.shopId,
    actor: OPERATOR,
    action: action === 'show' ? 'photo.shown' : 'photo.removed',
    target,
    details: { photo: hold._id },
  });
}
