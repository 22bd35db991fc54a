// The names of the jobs that are triggered from outside the module that defines them, declared once here: a route
// or service that queues work names the job without importing the job module (and everything it imports).
export const JOB = {
  /** Invitation e-mails (server/invitations/send.ts). */
  invitationMail: 'mail.invitations',
  /** Reminder e-mails of invitations whose link was not used (server/invitations/reminders.ts). */
  reminderMail: 'mail.reminders',
  /** E-mails about reviews: edit link, confirmation, reply (server/mail/reviews.ts). */
  reviewMail: 'mail.reviews',
  /** The e-mails of the outbox: sign-in links, team invitations, new edit links, moderation decisions' e-mails (server/mail/outbox-drain.ts). */
  outbox: 'mail.outbox',
  /** Photos to re-encode or delete (server/photos/jobs.ts). */
  photos: 'photos.work',
} as const;
