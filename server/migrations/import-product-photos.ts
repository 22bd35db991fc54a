// Start-up step, once (marker `imports.product_photos`): the photo URLs of imports finished by versions that fetched
// no photo of an imported product review (Judge.me `picture_urls`, Yotpo product rows' `Published Image Url`, our
// export's photo column) are stored on those product reviews (`photo_urls`, kept since the first import version), so
// the worker can fetch them now. Per import that is done (a scan of the small `imports` collection):
// - one its worker never listed for photos (no `photos` counts: finished before photos were fetched at all) gets the
//   whole listing queued, store and product reviews, as the end of an import queues it;
// - one whose store reviews' URLs were listed gets its product reviews' listed (`plan-products:<import>`), those
//   with no photo yet, the URLs counted on top of the store reviews' ones.
// Idempotent: each listing is queued once under its key per import (a no-op while queued), and the worker queues
// each URL under `fetch-product:<review>:<n>`. The photo worker finds them on its next round (imports/jobs.ts).
import { MigrationMarkers } from '../db/migrations.js';
import type { Services } from '../services.js';

const MARKER = 'imports.product_photos';

/** Returns how many imports had their photo URLs queued to be listed (0 once the marker is set). */
export async function migrateImportProductPhotos({
  db,
  now,
  imports,
  importPhotos,
}: Pick<Services, 'db' | 'importPhotos' | 'imports' | 'now'>): Promise<number> {
  let queued = 0;
  await new MigrationMarkers(db, now).runOnce(MARKER, async () => {
    for (const doc of await imports.done()) {
      const added = doc.photos
        ? await importPhotos.planProductPhotos(doc._id, doc.shopId, doc.photos.queued)
        : await importPhotos.plan(doc._id, doc.shopId);
      if (added) queued++;
    }
  });
  return queued;
}
