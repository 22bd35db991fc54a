// Sends invitation e-mails when they are due: the `mail.invitations` drain.
//
// Never lost: an invitation is in its work queue (`invitation_mail`, queue.ts) from before it exists until it has an
// outcome. A run takes a batch of due entries with claims of a short lease (renewed while it runs); when a process
// dies its claims run out and the next run, in any process, takes the entries over. Nothing is unlocked at start-up.
// Never twice (almost): the outcome of each e-mail is inserted right after the SMTP server accepted it, one small
// insert per message, so a crash can only cause a second copy in that moment, and the copy has the same Message-ID.
// See queue.ts for why all of this lives beside the invitations and not in them.
import { randomUUID } from 'node:crypto';
import type { ObjectId } from 'mongodb';
import type { Logger } from '../log.js';
import type { Mailer } from '../mail/mailer.js';
import { messageIdFor } from '../mail/message-id.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from '../mail/retry.js';
import { invitationMail } from '../mail/templates.js';
import type { Webshop } from '../webshops/model.js';
import type { InvitationOutcome, QueuedInvitation, Sendable } from './model.js';
import { type Episode, isTransient, withRetry } from '../jobs/transient.js';
import { JOB } from '../jobs/names.js';

const INVITATION_MAIL_JOB = JOB.invitationMail;

/** Entries claimed per round: large, because on FerretDB each round's queries scan the queue once. */
const BATCH = 1000;
/**
 * A queue entry is written before its invitation, so one without an invitation may be one whose invitation another
 * process is writing right now (which then wakes the senders again). Only after this long alone is it a leftover.
 */
const ORPHAN_AFTER_MS = 60_000;

/** Claims left by runs that died are pruned this long after they ran out (an entry taken over is checked first). */
const PRUNE_AFTER_MS = 86_400_000;

/** Runs of the sender in a burst of invitations start at least this far apart (ms). */
const BURST_SPACING_MS = 250;

type Signal = { touch: () => Promise<void> };

/**
 * What the sender uses, and nothing else: app.ts passes the invitation store and its queue (store.ts, queue.ts), the
 * shops, the unsubscribed addresses, the mailer and the compliance counters. Declared here as the methods called, so
 * a reader of the sender meets none of those modules.
 */
export interface InvitationMailDeps {
  config: {
    baseUrl: string;
    brandName: string;
    mail: { connections: number; retryScheduleMs: readonly number[] };
    scheduler: { lockLifetimeMs: number };
  };
  log: Logger;
  now: () => Date;
  invitations: {
    forSending(ids: readonly ObjectId[]): Promise<Map<string, Sendable>>;
    queue: {
      claimDue(holder: string, limit: number, leaseMs: number, skip: ReadonlySet<string>): Promise<QueuedInvitation[]>;
      renew(holder: string, leaseMs: number): Promise<Set<string>>;
      release(holder: string): Promise<void>;
      finish(outcome: InvitationOutcome): Promise<void>;
      finishAll(holder: string, ids: readonly ObjectId[]): Promise<void>;
      retryAt(id: ObjectId, due: Date, attempts: number, lastError: string): Promise<void>;
      prune(before: Date): Promise<unknown>;
    };
  };
  webshops: { get(id: number): Promise<Webshop | null> };
  suppressions: { unsubscribedIn(shopIds: number[]): Promise<(shopId: number, email: string) => boolean> };
  mailer: Pick<Mailer, 'domain' | 'send'>;
  compliance: { count(shopId: number, event: { kind: 'invitation_sent' }): void };
  /**
   * The process's one episode of transient errors while recording e-mail outcomes (app.ts makes it): one warning
   * for a run of failures, whichever batch met them.
   */
  mailRecording: Episode;
}

/**
 * The writes after an e-mail went out (its outcome, its retry time, the batch's clean-up) are retried through a
 * transient database error rather than failing the batch: a failed outcome write would leave the e-mail to be sent
 * again once the claim runs out. Each of them can be repeated safely (a second outcome keeps the first).
 */
function recorded(services: InvitationMailDeps, write: () => Promise<unknown>): Promise<unknown> {
  return withRetry(write, { episode: services.mailRecording, retryable: isTransient, givingUp: () => false });
}

export function defineInvitationMail(
  services: InvitationMailDeps & {
    scheduler: {
      define(
        name: string,
        drain: (signal: Signal) => Promise<void>,
        everyMs: number,
        options: { spacingMs: number },
      ): void;
    };
  },
): void {
  // Runs in a burst are spaced: each one reads the batch's invitations, a search of the collection on FerretDB.
  services.scheduler.define(
    INVITATION_MAIL_JOB,
    (signal) => drainInvitations(services, signal),
    mailSweepMs(services.config),
    {
      spacingMs: BURST_SPACING_MS,
    },
  );
}

/** Sends what is due, batch by batch, until nothing is due (or the mail server is failing). */
export async function drainInvitations(services: InvitationMailDeps, signal: Signal): Promise<void> {
  /** Entries whose invitation is not written yet: left for a later run. */
  const notYet = new Set<string>();
  let next = claimBatch(services, notYet);
  let tried = false;
  for (;;) {
    const batch = await next;
    if (!batch) break;
    tried = true;
    await signal.touch();
    // The next batch is claimed and read while this one is sent, so database and SMTP work overlap.
    next = claimBatch(services, notYet);
    const serverFailing = await sendBatch(services, batch, signal, notYet);
    if (serverFailing) {
      const unsent = await next;
      if (unsent) await services.invitations.queue.release(unsent.claim);
      return;
    }
  }
  // Claims are released as batches end; a run that died left its own, and take-overs leave markers.
  if (tried) await services.invitations.queue.prune(new Date(services.now().getTime() - PRUNE_AFTER_MS));
}

interface Batch {
  claim: string;
  entries: QueuedInvitation[];
  /** When the claims must be renewed (half their lease), in ms. */
  renewAt: number;
  context: Context;
}

async function claimBatch(services: InvitationMailDeps, notYet: Set<string>): Promise<Batch | undefined> {
  const lease = services.config.scheduler.lockLifetimeMs;
  const now = services.now();
  const claim = randomUUID();
  const entries = await services.invitations.queue.claimDue(claim, BATCH, lease, notYet);
  if (entries.length === 0) return undefined;
  return { claim, entries, renewAt: now.getTime() + lease / 2, context: await loadContext(services, entries) };
}

/**
 * Sends a claimed batch, a few at a time over the SMTP pool, renewing the claims (and the job's lock) while it runs.
 * Returns true when the mail server itself failed.
 */
async function sendBatch(
  services: InvitationMailDeps,
  batch: Batch,
  signal: Signal,
  notYet: Set<string>,
): Promise<boolean> {
  const { queue: q } = services.invitations;
  const lease = services.config.scheduler.lockLifetimeMs;
  const { context } = batch;
  const waiting = [...batch.entries];
  /** Entries that need no more work here: their queue entries go in one delete at the end. */
  const finished: ObjectId[] = [];
  /** Entries another run took over (our claim had run out before we renewed it). */
  const lost = new Set<string>();
  let renewing: Promise<void> | undefined;
  let serverError: unknown;

  const renew = async () => {
    const now = services.now().getTime();
    const kept = await q.renew(batch.claim, lease);
    for (const e of waiting) if (!kept.has(e._id.toHexString())) lost.add(e._id.toHexString());
    batch.renewAt = now + lease / 2;
    await signal.touch();
  };

  const worker = async () => {
    // After a failure of the server itself the rest are left as they are: due again at the next run, which tries
    // the server once more. Only the e-mails that were actually tried move along their retry schedule.
    for (let entry = waiting.shift(); entry && serverError === undefined; entry = waiting.shift()) {
      // A batch claimed ahead of time may reach here with its claims half run out: renew before sending.
      if (services.now().getTime() >= batch.renewAt) {
        renewing ??= renew().finally(() => (renewing = undefined));
        await renewing;
      }
      if (lost.has(entry._id.toHexString())) continue;
      const error = await sendOne(services, context, entry, finished, notYet);
      if (error !== undefined && isServerFailure(error) && serverError === undefined) serverError = error;
    }
  };
  await Promise.all(Array.from({ length: services.config.mail.connections * 2 }, worker));

  await recorded(services, () => q.finishAll(batch.claim, finished));
  await recorded(services, () => q.release(batch.claim));
  if (serverError !== undefined)
    services.log.warn({ err: serverError }, 'mail server failing; invitations will be retried');
  return serverError !== undefined;
}

interface Context {
  invitations: Map<string, Sendable>;
  shops: Map<number, Webshop | null>;
  /** Whether the address unsubscribed from the shop. */
  unsubscribed: (shopId: number, email: string) => boolean;
}

/** What the batch's e-mails need, read once per batch rather than once per e-mail. */
async function loadContext(services: InvitationMailDeps, entries: QueuedInvitation[]): Promise<Context> {
  const invitations = await services.invitations.forSending(entries.map((e) => e._id));
  const shopIds = [...new Set([...invitations.values()].map((i) => i.shopId))];
  const shops = await Promise.all(shopIds.map((id) => services.webshops.get(id)));
  return {
    invitations,
    shops: new Map(shopIds.map((id, n) => [id, shops[n] ?? null])),
    unsubscribed: await services.suppressions.unsubscribedIn(shopIds),
  };
}

/** Sends one invitation and records how it went; returns the send error, if any. */
async function sendOne(
  services: InvitationMailDeps,
  context: Context,
  entry: QueuedInvitation,
  finished: ObjectId[],
  notYet: Set<string>,
): Promise<unknown> {
  const { mailer } = services;
  const invitation = context.invitations.get(entry._id.toHexString());
  if (!invitation) {
    if (services.now().getTime() - entry._id.getTimestamp().getTime() < ORPHAN_AFTER_MS)
      return void notYet.add(entry._id.toHexString());
    // A repeat whose queue entry outlived it, a crash between the two writes, or a customer whose data was erased.
    return void finished.push(entry._id);
  }
  const shop = context.shops.get(invitation.shopId);
  if (!shop) return finish(services, entry, finished, 'failed', null, 'the webshop no longer exists');
  if (context.unsubscribed(invitation.shopId, invitation.email)) {
    return finish(services, entry, finished, 'suppressed', null, 'unsubscribed');
  }

  const messageId = messageIdFor({ kind: 'invitation', invitationId: entry._id.toHexString() }, mailer.domain);
  try {
    await mailer.send(composeInvitationMail(services, invitation, shop, messageId));
  } catch (err) {
    await retryLater(services, entry, err, finished);
    return err;
  }
  // The one write between the server's acceptance and our record of it: keep it alone, small and immediate.
  const done = await finish(services, entry, finished, 'sent', messageId, null);
  services.compliance.count(invitation.shopId, { kind: 'invitation_sent' });
  return done;
}

/** The invitation e-mail, or with `template` its reminder: same links, same one-click unsubscribe. */
export function composeInvitationMail(
  services: { config: { baseUrl: string; brandName: string } },
  invitation: Sendable,
  shop: Pick<Webshop, 'name'>,
  messageId: string,
  template: typeof invitationMail = invitationMail,
) {
  const { baseUrl, brandName } = services.config;
  const unsubscribeUrl = `${baseUrl}/unsubscribe/${invitation.unsubscribeToken}`;
  const content = template({
    language: invitation.language,
    shopName: shop.name,
    brandName,
    customerName: invitation.customer_name,
    reviewUrl: `${baseUrl}/review/${invitation.token}`,
    unsubscribeUrl,
  });
  return {
    fromName: shop.name,
    to: invitation.email,
    ...content,
    messageId,
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

async function finish(
  services: InvitationMailDeps,
  entry: QueuedInvitation,
  finished: ObjectId[],
  status: 'sent' | 'failed' | 'suppressed',
  messageId: string | null,
  reason: string | null,
): Promise<undefined> {
  const outcome = { _id: entry._id, status, at: services.now(), messageId, reason };
  await recorded(services, () => services.invitations.queue.finish(outcome));
  finished.push(entry._id);
  return undefined;
}

/** A failed attempt: due again later on the retry schedule, or finished as failed (permanent, or out of retries). */
async function retryLater(
  services: InvitationMailDeps,
  entry: QueuedInvitation,
  err: unknown,
  finished: ObjectId[],
): Promise<void> {
  const attempts = entry.attempts + 1;
  const next = afterFailure(attempts, classifySendError(err), services.config.mail.retryScheduleMs, services.now());
  const lastError = describeSendError(err);
  if ('giveUp' in next) {
    await finish(services, entry, finished, 'failed', null, `${next.giveUp}: ${lastError}`);
    return;
  }
  await recorded(services, () => services.invitations.queue.retryAt(entry._id, next.retryAt, attempts, lastError));
}
