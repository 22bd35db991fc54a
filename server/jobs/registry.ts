// Every scheduled job of the service, defined in one place (called once from app.ts). Each feature's job module
// defines its own jobs; no route module defines one. The scheduler itself (scheduler.ts) runs them in worker processes.
import type { Services } from '../services.js';
import { defineInvitationMail } from '../invitations/send.js';
import { defineReminderMail } from '../invitations/reminders.js';
import { defineMailJobs } from '../mail/jobs.js';
import { registerWebhookJobs } from '../webhooks/jobs.js';
import { defineReviewCleanupJobs } from '../reviews/jobs.js';
import { defineModerationJobs } from '../moderation/jobs.js';
import { defineAccountJobs } from '../accounts/jobs.js';
import { defineSignalJobs } from '../signals/jobs.js';

export async function registerJobs(services: Services): Promise<void> {
  defineInvitationMail(services);
  defineReminderMail(services);
  await defineMailJobs(services);
  registerWebhookJobs(services);
  defineReviewCleanupJobs(services);
  defineModerationJobs(services);
  defineAccountJobs(services);
  defineSignalJobs(services);
}
