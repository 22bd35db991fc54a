// The scheduled e-mail work: invitations (server/invitations/send.ts), the e-mails about reviews (reviews.ts), and
// forgetting the per-recipient counts of past days (recipient-limit.ts; FerretDB has no TTL indexes).
import type { Services } from '../services.js';
import { defineInvitationMail } from '../invitations/send.js';
import { defineReviewMail } from './reviews.js';

const HOUR_MS = 3_600_000;

export async function registerMailJobs(services: Services): Promise<void> {
  defineInvitationMail(services);
  await defineReviewMail(services);
  services.scheduler.define('mail.recipients.cleanup', async () => void (await services.recipientLimit.removeEarlierDays()), HOUR_MS);
}
