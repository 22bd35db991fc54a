// Start-up step, once (marker `webhook_subscriptions.consecutive_failures`; docs/decisions.md, "Stored field
// names"): the subscriptions' internal failure count, stored as `consecutive_failures` before, is
// `consecutiveFailures`. One update of the subscriptions that still have the old name (a small collection: at most
// WEBHOOK_MAX_PER_SHOP per shop).
import { MigrationMarkers } from '../db/migrations.js';
import type { Services } from '../services.js';

const MARKER = 'webhook_subscriptions.consecutive_failures';

/** Returns how many subscriptions were renamed (0 once the marker is set). */
export async function migrateWebhookFailureCount({ db, now }: Pick<Services, 'db' | 'now'>): Promise<number> {
  let renamed = 0;
  await new MigrationMarkers(db, now).runOnce(MARKER, async () => {
    const subscriptions = db.collection<{ consecutive_failures?: number }>('webhook_subscriptions');
    const result = await subscriptions.updateMany(
      { consecutive_failures: { $exists: true } },
      { $rename: { consecutive_failures: 'consecutiveFailures' } },
    );
    renamed = result.modifiedCount;
  });
  return renamed;
}
