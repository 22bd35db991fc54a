// The scheduled e-mail work: invitations (server/invitations/send.ts) and the e-mails about reviews (reviews.ts).
import type { Services } from '../services.js';
import { defineInvitationMail } from '../invitations/send.js';
import { defineReviewMail } from './reviews.js';

export async function registerMailJobs(services: Services): Promise<void> {
  defineInvitationMail(services);
  await defineReviewMail(services);
}
