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
import type { Role } from '../accounts/roles.js';
import { JOB } from '../jobs/names.js';
import type { Language } from '../languages.js';
import type { Ground } from '../moderation/schema.js';
import type { AppealRole, DecisionTrigger, NoticeKind } from '../moderation/store.js';
import type { WorkQueue } from '../queue/work-queue.js';
import type { Services } from '../services.js';
import type { OutgoingMail } from './transport.js';

/** A sign-in link, or (with `team`) the e-mail telling a user added to a team how to sign in. */
interface SignInIntent {
  kind: 'sign-in';
  userId: number;
  language: Language;
  team: { shopName: string; role: Role } | null;
  /** The requester stopped waiting then: not sent later (null: sent whenever the server takes it). */
  expires: Date | null;
}

/** The new edit link a writer asked for (POST /edit/{token}/renew); the link itself is the review's. */
interface NewEditLinkIntent {
  kind: 'edit-link';
  reviewId: number;
  shopId: number;
  /** When the link was renewed: a later renewal replaces this e-mail. */
  renewed: Date;
}

/** The e-mail telling a writer their review was removed, and why; the review's address is blanked, so it is kept. */
interface RemovalNoticeIntent {
  kind: 'removal';
  reviewId: number;
  shopId: number;
  to: string;
  language: Language;
  ground: Ground;
}

/**
 * A moderation decision's e-mail (issue 21): to the writer (removed or redacted, with the statement of reasons), to
 * the reporter (the outcome), or the answer to a complaint. The complaint link it carries is made when it is sent.
 */
interface DecisionNoticeIntent {
  kind: 'decision';
  reviewId: number;
  shopId: number;
  to: string;
  language: Language;
  /** Null for a "keep" without a ground and for complaint answers. */
  ground: Ground | null;
  notice: NoticeKind;
  role: AppealRole;
  /** The writer's statement of reasons (never in a reporter's e-mail). */
  statement?: string;
  trigger?: DecisionTrigger;
  /** The decided report: the complaint link is made for it when the e-mail is sent. */
  report?: string;
}

/** `removal` is what the version before issue 21 queued: still sent, as a writer's removal notice. */
export type OutboxMail = SignInIntent | NewEditLinkIntent | RemovalNoticeIntent | DecisionNoticeIntent;
type OutboxMailKind = OutboxMail['kind'];
export type OutboxMailOf<K extends OutboxMailKind> = Extract<OutboxMail, { kind: K }>;

export type Outbox = WorkQueue<OutboxMail>;
export const OUTBOX_COLLECTION = 'mail_outbox';

/** `<sign-in.3f2a…@reviews.example.com>`: the same for every attempt at the e-mail queued under `key`. */
export const outboxMessageId = (key: string, domain: string): string => `<${key}@${domain.toLowerCase()}>`;

/** Queues the e-mail and wakes the drain; false when it was queued already (nothing changes then). */
export async function queueMail(
  services: Pick<Services, 'outbox' | 'scheduler'>,
  key: string,
  mail: OutboxMail,
): Promise<boolean> {
  const queued = await services.outbox.enqueue(key, mail);
  if (queued) services.scheduler.trigger(JOB.outbox);
  return queued;
}

/** The message as it goes out now; the drain adds the Message-ID. */
type ComposedMail = Omit<OutgoingMail, 'messageId'>;

/** What one kind of outbox e-mail does when the drain gets to it; each feature defines its own. */
export interface OutboxKind<M extends OutboxMail> {
  /** The message to send now (a sign-in link is made here), or why it is no longer wanted (dropped, not sent). */
  compose(mail: M): Promise<ComposedMail | { drop: string }>;
  /** Given up (refused for good, or out of retries): recorded where the operator looks. */
  gaveUp?(mail: M, reason: string): Promise<void>;
  /** Accepted by the mail server: recorded where the operator looks. */
  sent?(mail: M): Promise<void>;
}

export type OutboxKinds = { [K in OutboxMailKind]: OutboxKind<OutboxMailOf<K>> };
