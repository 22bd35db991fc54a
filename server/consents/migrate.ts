// Start-up migration to the consent pop-up's trust model (docs/decisions.md), run by every process at start and
// idempotent: a repeat, or two processes at once, change nothing further. Each step searches a collection (a scan on
// FerretDB), so each runs until a marker records that it was done; a later start only reads the markers.
// - Unsigned receipts that an older version kept under the order's own key move to their address's key. (One that
//   a process of the older version writes after this ran is moved when it is first read: ConsentStore.get.)
// - Reviews that already waited for confirmation join the queue through which they expire.
import { isDuplicateKey } from '../db/index.js';
import type { Services } from '../services.js';
import { confirmationOf, NO_CONSENT } from '../embed/release.js';

const REKEY_DONE = 'consents.unsigned-by-address';
const BACKFILL_DONE = 'review_confirmations.backfill';

export async function migrateConsentTrust(services: Services): Promise<void> {
  const migrations = services.db.collection<{ _id: string; done: Date }>('migrations');
  const done = async (step: string) => (await migrations.findOne({ _id: step })) !== null;
  const markDone = async (step: string) => {
    try {
      await migrations.insertOne({ _id: step, done: services.now() });
    } catch (err) {
      // Another process finished it at the same time.
      if (!isDuplicateKey(err)) throw err;
    }
  };

  if (!(await done(REKEY_DONE))) {
    const moved = await services.consents.migrateUnsigned();
    if (moved > 0) services.log.info({ moved }, 'unsigned consent receipts re-keyed by address');
    await markDone(REKEY_DONE);
  }

  if (!(await done(BACKFILL_DONE))) {
    const waiting = await services.reviews.awaitingConfirmation();
    await services.confirmations.addMany(waiting.map((review) => confirmationOf(review, NO_CONSENT)));
    if (waiting.length > 0) services.log.info({ queued: waiting.length }, 'waiting reviews queued for expiry');
    await markDone(BACKFILL_DONE);
  }
}
