// The outbox: the e-mails that have no queue of their own (sign-in links and team invitations, the writer's new edit
// link, moderation decisions' notices) are queued here by the request or job that decides to send them, and sent by the worker's
// `mail.outbox` drain (outbox-drain.ts). No request waits for an SMTP server, and an e-mail survives a mail server
// that is down, or a process that dies, until it is sent or given up.
//
// The outbox is one work queue (server/queue/work-queue.ts: `mail_outbox` and `mail_outbox_claims`). What is queued
// is the intent, never a secret: a sign-in link is made by the drain when it sends the e-mail. Each e-mail is queued
// under a key that is also its Message-ID's local part, so a repeat after a crash carries the same Message-ID, and a
// second enqueue of the same e-mail is a no-op. The limits per address and per shop are taken by the caller before
// it queues (accounts' link places and team limits, mail/recipient-limit-store.ts).
// The mail feature knows the outbox, not what each sender puts in it: each e-mail's intent is declared by the
// feature that queues it (accounts/sign-in-mail.ts, moderation/notice-mail.ts; the writer's new edit link here),
// and the composition root (services.ts) names their union, so mail depends on no sender.
import { JOB } from '../jobs/names.js';
import type { WorkQueue } from '../queue/work-queue.js';
import type { Services } from '../services.js';
import type { OutgoingMail } from './transport.js';

/** What every outbox e-mail's intent has: the kind its sender defines (`OutboxKind`), composed by the drain. */
export interface OutboxIntent {
  kind: string;
}

/** The new edit link a writer asked for (POST /edit/{token}/renew); the link itself is the review's. */
interface NewEditLinkIntent {
  kind: 'edit-link';
  reviewId: number;
  shopId: number;
  /** When the link was renewed: a later renewal replaces this e-mail. */
  renewed: Date;
}

/** The intents declared by the mail feature itself (the writer's pages queue the new edit link). */
export type MailOwnIntent = NewEditLinkIntent;
export type OutboxMailOf<K extends MailOwnIntent['kind']> = Extract<MailOwnIntent, { kind: K }>;

export const OUTBOX_COLLECTION = 'mail_outbox';

/** `<sign-in.3f2a…@reviews.example.com>`: the same for every attempt at the e-mail queued under `key`. */
export const outboxMessageId = (key: string, domain: string): string => `<${key}@${domain.toLowerCase()}>`;

/** Queues the e-mail and wakes the drain; false when it was queued already (nothing changes then). */
export async function queueMail<M extends OutboxIntent>(
  services: Pick<Services, 'scheduler'> & { outbox: Pick<WorkQueue<M>, 'enqueue'> },
  key: string,
  mail: NoInfer<M>,
): Promise<boolean> {
  const queued = await services.outbox.enqueue(key, mail);
  if (queued) services.scheduler.trigger(JOB.outbox);
  return queued;
}

/** The message as it goes out now; the drain adds the Message-ID. */
type ComposedMail = Omit<OutgoingMail, 'messageId'>;

/** What one kind of outbox e-mail does when the drain gets to it; each feature defines its own. */
export interface OutboxKind<M extends OutboxIntent> {
  /** The message to send now (a sign-in link is made here), or why it is no longer wanted (dropped, not sent). */
  compose(mail: M): Promise<ComposedMail | { drop: string }>;
  /** Given up (refused for good, or out of retries): recorded where the operator looks. */
  gaveUp?(mail: M, reason: string): Promise<void>;
  /** Accepted by the mail server: recorded where the operator looks. */
  sent?(mail: M): Promise<void>;
}

/** One kind per intent of the union `M` (services.ts's `OutboxMail`). */
export type OutboxKinds<M extends OutboxIntent> = { [K in M['kind']]: OutboxKind<Extract<M, { kind: K }>> };
