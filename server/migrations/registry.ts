// The one-time start-up migrations, in the order they run: every process runs them at start (app.ts), after the
// indexes and before it serves. Each is idempotent and sets its marker in `migrations` (db/migrations.ts) once done,
// so a later start only reads the markers; two processes starting at once may both run one, harmlessly.
// The queues' backfills (review events, review e-mails, webhook due entries) stay with their queues: they write the
// queue's own entries by its rules. The rest is here, one module each, beside its test.
import type { Services } from '../services.js';
import { migrateConsentTrust } from './consent-trust.js';
import { migrateRemovalGround } from './removal-ground.js';
import { migrateRemovalNotices } from './removal-notices.js';
import { migrateReviewOrigins } from './review-origins.js';
import { migrateWebhookFailureCount } from './webhook-failure-count.js';
import { migrateWebhookLogNames } from './webhook-log-names.js';
import { migrateInvitationQueues } from './invitation-queues.js';
import { migrateReviewMails } from './review-mails.js';
import { migrateWebhookEvents } from './webhook-events.js';
import { migrateSignalQueues } from './signal-queues.js';
import { migrateImportQueue } from './import-queue.js';
import { migratePhotoQueues } from './photo-queues.js';
import { migrateImportProductPhotos } from './import-product-photos.js';

const MIGRATIONS: readonly ((services: Services) => Promise<unknown>)[] = [
  (s) => s.reviewEvents.migrate(s.reviews),
  (s) => s.reviewMails.migrate(s.reviews),
  (s) => s.webhookDeliveries.migrate(s.now()),
  migrateWebhookLogNames,
  migrateConsentTrust,
  migrateReviewOrigins,
  migrateRemovalGround,
  migrateWebhookFailureCount,
  migrateRemovalNotices,
  migrateInvitationQueues,
  migrateReviewMails,
  migrateWebhookEvents,
  migrateSignalQueues,
  migrateImportQueue,
  migratePhotoQueues,
  migrateImportProductPhotos,
];

export async function runMigrations(services: Services): Promise<void> {
  for (const migrate of MIGRATIONS) await migrate(services);
}
