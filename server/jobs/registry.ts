// Every scheduled job of the service, defined in one place (called once from app.ts). Each feature's job module
// defines its own jobs; no route module defines one. The scheduler itself (scheduler.ts) runs them in worker processes.
import type { Services } from '../services.js';
import { defineInvitationMail } from '../invitations/send.js';
import { defineReminderMail } from '../invitations/reminders.js';
import { defineMailJobs } from '../mail/jobs.js';
import { registerWebhookJobs } from '../webhooks/jobs.js';
import { defineReviewCleanupJobs } from '../reviews/jobs.js';
import { decisionNoticeKind, defineModerationJobs, removalNoticeKind } from '../moderation/jobs.js';
import { defineOutbox } from '../mail/outbox-drain.js';
import { signInMailKind } from '../accounts/service.js';
import { newEditLinkMailKind } from '../pages/writer.js';
import { defineAccountJobs } from '../accounts/jobs.js';
import { defineImportJobs } from '../imports/jobs.js';
import { definePhotoJobs } from '../photos/jobs.js';
import { defineSignalJobs } from '../signals/jobs.js';
import { defineFeedJobs } from '../feed/rebuild-jobs.js';

export async function registerJobs(
  services: Pick<
    Services,
    | 'activity'
    | 'audit'
    | 'compliance'
    | 'config'
    | 'confirmations'
    | 'consents'
    | 'db'
    | 'feedKeys'
    | 'feedRebuilds'
    | 'googleFeeds'
    | 'helpful'
    | 'importPhotos'
    | 'imports'
    | 'invitations'
    | 'log'
    | 'mailRecording'
    | 'mailer'
    | 'moderation'
    | 'now'
    | 'outbox'
    | 'photoStorage'
    | 'photos'
    | 'popupTokens'
    | 'productReviews'
    | 'recipientLimit'
    | 'reviewEvents'
    | 'reviewMails'
    | 'reviews'
    | 'scheduler'
    | 'sessions'
    | 'signInLinks'
    | 'signals'
    | 'suppressions'
    | 'teamInvitations'
    | 'users'
    | 'webhookDeliveries'
    | 'webhooks'
    | 'webshops'
  >,
): Promise<void> {
  defineInvitationMail(services);
  defineReminderMail(services);
  await defineMailJobs(services);
  registerWebhookJobs(services);
  defineReviewCleanupJobs(services);
  // Each kind of outbox e-mail is composed by the feature that queues it.
  defineOutbox(services, {
    'sign-in': signInMailKind(services),
    'edit-link': newEditLinkMailKind(services),
    removal: removalNoticeKind(services),
    decision: decisionNoticeKind(services),
  });
  defineAccountJobs(services);
  defineImportJobs(services);
  definePhotoJobs(services);
  defineSignalJobs(services);
  defineModerationJobs(services);
  defineFeedJobs(services);
}
