// GET /photos/{id}.webp and /photos/{id}-320.webp: a review's photo, only while the review is published and the
// photo shown (404 otherwise: before confirmation, while held for the operator, after removal). They load in embeds
// on shops' pages (Cross-Origin-Resource-Policy: cross-origin), run nothing (a CSP of 'none', sandboxed), and are
// cached a day, not longer: an erased photo must not stay in caches for long (docs/deployment.md: purging a CDN).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { photoIsPublic } from './service.js';

const FILE = /^([A-Za-z0-9_-]{22})(-320)?\.webp$/;

export function registerPhotoRoutes(
  router: Router,
  services: Pick<Services, 'importedPhotoOwners' | 'photoStorage' | 'photos' | 'reviews'>,
): void {
  router.get('/photos/:file', async (ctx: Context) => {
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    const match = FILE.exec(ctx.params.file ?? '');
    if (!match) throw new HttpError(404, 'No such photo.');
    const id = match[1]!;
    const file = (await photoIsPublic(services, id)) ? await services.photoStorage.read(ctx.params.file!) : null;
    if (!file) throw new HttpError(404, 'No such photo.');
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = 'image/webp';
    ctx.length = file.bytes;
    ctx.body = file.stream;
  });
}

/**
 * The imported product reviews that own photos (photos/store.ts `productReviewId`): whether one of them shows the
 * photo. Built in app.ts over the imports' store, so this feature names what it asks and not the store behind it.
 */
export interface ImportedPhotoOwners {
  photoShown(productReviewId: string, photoId: string): Promise<boolean>;
  /** What the operator's held-photo list shows of the review: its product and text (null when it is gone). */
  describe(
    productReviewId: string,
  ): Promise<{ product: { id: string; name: string }; text: string; title: string } | null>;
  /** The operator's decision on a held photo; false when the review was removed meanwhile. */
  decideHeldPhoto(productReviewId: string, photoId: string, state: 'shown' | 'removed'): Promise<boolean>;
}
