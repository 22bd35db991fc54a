// Operator API for photos held for a look before they are shown (PHOTO_REVIEW=operator), whatever the review's score:
// - GET /admin/api/photos/held: the held photos, oldest first, with their review (a shop review, or an imported
//   product review: imports/product-review-store.ts), its shop, product and an excerpt of its text;
// - POST /admin/api/photos/{id}/decision {action: show|remove}: shows the photo with its review (public while the
//   review is published), or removes it (its files are deleted). Audited in the shop's trail.
import type Router from '@koa/router';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { photoPath } from '../reviews/photos.js';
import { decideHeldPhoto, heldPhotos } from './service.js';

export const photoDecision = z.object({ action: z.enum(['show', 'remove']) }).strict();

const PHOTO_ID = /^[A-Za-z0-9_-]{22}$/;

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
    const rows = await heldPhotos(services, 100);
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
    if (!PHOTO_ID.test(id)) throw new HttpError(404, 'No such held photo.');
    await decideHeldPhoto(services, id, action);
    ctx.body = { id, state: action === 'show' ? 'shown' : 'removed' };
  });
}
