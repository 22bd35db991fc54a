// Start-up migration to the consent pop-up's trust model (docs/decisions.md), run by every process at start and
// idempotent: a repeat, or two processes at once, change nothing further. Each step searches a collection (a scan on
// FerretDB), so each runs until a marker records that it was done; a later start only reads the markers.
// - Unsigned receipts that an older version kept under the order's own key move to their address's key. (One that
//   a process of the older version writes after this ran is moved when it is first read: ConsentStore.get.)
// - Reviews that already waited for confirmation join the queue through which they expire.
import { MigrationMarkers } from '../db/migrations.js';
import type { Services } from '../services.js';
import { queueWaitingReviews } from '../reviews/publication.js';

const REKEY_DONE = 'consents.unsigned-by-address';
const BACKFILL_DONE = 'review_confirmations.backfill';

export async function migrateConsentTrust(
  services: Pick<Services, 'confirmations' | 'consents' | 'db' | 'log' | 'now' | 'reviews'>,
): Promise<void> {
  const markers = new MigrationMarkers(services.db, services.now);
  await markers.runOnce(REKEY_DONE, async () => {
    const moved = await services.consents.migrateUnsigned();
    if (moved > 0) services.log.info({ moved }, 'unsigned consent receipts re-keyed by address');
  });
  await markers.runOnce(BACKFILL_DONE, async () => {
    const queued = await queueWaitingReviews(services);
    if (queued > 0) services.log.info({ queued }, 'waiting reviews queued for expiry');
  });
}
