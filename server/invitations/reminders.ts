// The one reminder of an invitation (`mail.reminders`): `reminder_days` after the invitation e-mail, when its review
// link has not been used. Never after an unsubscribe, a review for that order, or a first e-mail that failed or was
// not sent. Only invitations queued since reminders exist have one (reminder-queue.ts): the drain takes the due
// entries of that small work queue (server/queue/work-queue.ts) and decides each with `reminderDecision`.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.js';
import type { Mailer } from '../mail/mailer.js';
import type { Webshop } from '../webshops/model.js';
import { reminderDays } from '../webshops/rules.js';
import { messageIdFor } from '../mail/message-id.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure } from '../mail/retry.js';
import { reminderMail } from '../mail/templates.js';
import { addDays } from '../time.js';
import { JOB } from '../jobs/names.js';
import { composeInvitationMail } from './send.js';
import type { InvitationOutcome } from './queue.js';
import type { DueReminder } from './reminder-queue.js';
import type { InvitationStore } from './store.js';

/** Reminders are due days apart: a sweep every few minutes is on time, and reads only the due entries. */
const SWEEP_MS = 5 * 60_000;
const BATCH = 200;
/** Claims left by runs that died are pruned this long after they ran out (an entry taken over is checked first). */
const PRUNE_AFTER_MS = 86_400_000;
/** A first e-mail still being retried: look again after this long. */
const RECHECK_MS = 3_600_000;

type ReminderDecision = { send: true } | { skip: string } | { later: Date };

/** What decides a reminder, read when it falls due (the shop's setting as it is now, not as it was). */
export interface ReminderFacts {
  days: number;
  /** How the invitation's first e-mail ended; null while it is still queued. */
  firstMail: Pick<InvitationOutcome, 'status' | 'at'> | null;
  linkUsed: boolean;
  unsubscribed: boolean;
  /** A review was written for the invitation's order (by any path). */
  reviewed: boolean;
  now: Date;
}

export function reminderDecision(f: ReminderFacts): ReminderDecision {
  if (f.days <= 0) return { skip: 'reminders_off' };
  if (f.firstMail === null) return { later: new Date(f.now.getTime() + RECHECK_MS) };
  if (f.firstMail.status === 'suppressed' || f.unsubscribed) return { skip: 'unsubscribed' };
  if (f.firstMail.status === 'failed') return { skip: 'first_mail_failed' };
  if (f.linkUsed) return { skip: 'link_used' };
  if (f.reviewed) return { skip: 'reviewed' };
  const due = addDays(f.firstMail.at, f.days);
  return due > f.now ? { later: due } : { send: true };
}

/**
 * What the reminders use: the invitation store (its own feature's: the invitation, its first e-mail's outcome, the
 * reminder queue), and, through the methods app.ts passes, the shops, the reviews written for an order, the
 * unsubscribed addresses and the mailer.
 */
export interface ReminderDeps {
  config: {
    baseUrl: string;
    brandName: string;
    mail: { retryScheduleMs: readonly number[] };
    scheduler: { lockLifetimeMs: number };
  };
  log: Logger;
  now: () => Date;
  invitations: Pick<InvitationStore, 'get' | 'queue' | 'reminders'>;
  webshops: { get(id: number): Promise<Webshop | null> };
  reviews: { byOrder(shopId: number, order: string): Promise<readonly unknown[]> };
  suppressions: { unsubscribedIn(shopIds: number[]): Promise<(shopId: number, email: string) => boolean> };
  mailer: Pick<Mailer, 'domain' | 'send'>;
}

export function defineReminderMail(
  services: ReminderDeps & {
    scheduler: {
      define(name: string, drain: (signal: { touch: () => Promise<void> }) => Promise<void>, everyMs: number): void;
    };
  },
): void {
  services.scheduler.define(JOB.reminderMail, (signal) => drainReminders(services, signal), SWEEP_MS);
}

/** Decides (and sends) every due reminder, batch by batch; stops early when the mail server itself fails. */
export async function drainReminders(services: ReminderDeps, signal: { touch: () => Promise<void> }): Promise<void> {
  const { reminders } = services.invitations;
  const lease = services.config.scheduler.lockLifetimeMs;
  let tried = false;
  for (;;) {
    const holder = randomUUID();
    const batch = await reminders.claimDue(holder, BATCH, lease);
    if (batch.length === 0) break;
    tried = true;
    await signal.touch();
    try {
      const context: BatchContext = { shops: new Map(), unsubscribed: new Map() };
      for (const entry of batch) {
        const error = await remindOne(services, holder, entry, context);
        if (error !== undefined && isServerFailure(error)) {
          services.log.warn({ err: error }, 'mail server failing; reminders will be retried');
          return;
        }
      }
    } finally {
      await reminders.release(holder);
    }
  }
  // Claims are released as batches end; a run that died left its own, and take-overs leave markers.
  if (tried) await reminders.prune(new Date(services.now().getTime() - PRUNE_AFTER_MS));
}

/** What a batch reads once per shop rather than once per reminder. */
interface BatchContext {
  shops: Map<number, Webshop | null>;
  /** Whether an address unsubscribed, per shop. */
  unsubscribed: Map<number, (shopId: number, email: string) => boolean>;
}

/** Decides one reminder and acts on it; returns the send error, if any. */
async function remindOne(
  services: ReminderDeps,
  holder: string,
  entry: DueReminder,
  context: BatchContext,
): Promise<unknown> {
  const { invitations, reviews, suppressions, mailer } = services;
  const { reminders } = invitations;
  const now = services.now();
  const finish = (status: 'sent' | 'skipped' | 'failed', messageId: string | null, reason: string | null) =>
    reminders.finish({ _id: entry._id, status, at: services.now(), messageId, reason }, holder);

  const invitation = await invitations.get(entry._id);
  if (!invitation) return reminders.cancel([entry._id]);
  const { shops } = context;
  if (!shops.has(invitation.shopId)) shops.set(invitation.shopId, await services.webshops.get(invitation.shopId));
  const shop = shops.get(invitation.shopId) ?? null;
  if (!shop) return finish('skipped', null, 'webshop_gone');
  if (!context.unsubscribed.has(shop.id))
    context.unsubscribed.set(shop.id, await suppressions.unsubscribedIn([shop.id]));
  const unsubscribed = context.unsubscribed.get(shop.id)!;

  const [firstMail, written] = await Promise.all([
    invitations.queue.outcomeOf(entry._id),
    invitation.order ? reviews.byOrder(shop.id, invitation.order) : Promise.resolve([]),
  ]);
  const decision = reminderDecision({
    days: reminderDays(shop),
    firstMail,
    linkUsed: invitation.used !== null,
    unsubscribed: unsubscribed(shop.id, invitation.email),
    reviewed: written.length > 0,
    now,
  });
  if ('skip' in decision) return finish('skipped', null, decision.skip);
  if ('later' in decision) return reminders.postpone(entry._id, decision.later);

  const messageId = messageIdFor({ kind: 'reminder', invitationId: entry._id.toHexString() }, mailer.domain);
  try {
    await mailer.send(composeInvitationMail(services, invitation, shop, messageId, reminderMail));
  } catch (err) {
    const attempts = entry.attempts + 1;
    const next = afterFailure(attempts, classifySendError(err), services.config.mail.retryScheduleMs, services.now());
    if ('giveUp' in next) await finish('failed', null, `${next.giveUp}: ${describeSendError(err)}`);
    else await reminders.postpone(entry._id, next.retryAt, attempts, describeSendError(err));
    return err;
  }
  await finish('sent', messageId, null);
  return undefined;
}
