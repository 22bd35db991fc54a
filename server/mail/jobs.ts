// The scheduled e-mail work of the mail feature: the e-mails about reviews (reviews.ts), and forgetting the
// per-recipient counts of past days (recipient-limit.ts; FerretDB has no TTL indexes). Invitations and their
// reminders are the invitations feature's jobs (server/invitations).
import type { Services } from '../services.js';
import { defineReviewMail } from './reviews.js';

const HOUR_MS = 3_600_000;

export async function defineMailJobs(
  services: Pick<
    Services,
    'config' | 'log' | 'mailer' | 'now' | 'recipientLimit' | 'reviewMails' | 'reviews' | 'scheduler' | 'webshops'
  >,
): Promise<void> {
  await defineReviewMail(services);
  services.scheduler.define(
    'mail.recipients.cleanup',
    async () => void (await services.recipientLimit.removeEarlierDays()),
    HOUR_MS,
  );
}
