// The outbox e-mails moderation queues (types only): declared here, beside the decisions they tell of, so that the
// mail feature, which sends them, depends on no moderation module (mail/outbox-mail.ts).
import type { Language } from '../languages.js';
import type { Ground } from './schema.js';
import type { AppealRole, DecisionTrigger, NoticeKind } from './store.js';

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
export type NoticeIntent = RemovalNoticeIntent | DecisionNoticeIntent;
export type NoticeMailOf<K extends NoticeIntent['kind']> = Extract<NoticeIntent, { kind: K }>;
