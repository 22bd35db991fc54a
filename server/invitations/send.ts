// Sends invitation e-mails when they are due: the `mail.invitations` drain.
//
// Never lost: an invitation is in `invitation_queue` from before it exists until it has an outcome. A run takes a
// batch of due entries by inserting claims with a short lease (renewed while it runs); when a process dies its
// claims run out and the next run, in any process, takes the entries again. Nothing is unlocked at start-up.
// Never twice (almost): the outcome of each e-mail is inserted right after the SMTP server accepted it, one small
// insert per message, so a crash can only cause a second copy in that moment, and the copy has the same Message-ID.
// See queue.ts for why all of this lives beside the invitations and not in them.
import { randomUUID } from 'node:crypto';
import type { ObjectId } from 'mongodb';
import type { Services } from '../services.js';
import { isDuplicateKey } from '../db/index.js';
import { messageIdFor } from '../mail/message-id.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from '../mail/retry.js';
import { invitationMail } from '../mail/templates.js';
import type { Webshop } from '../webshops/store.js';
import { suppressionKey } from '../mail/suppressions.js';
import type { Invitation } from './store.js';
import type { QueuedInvitation } from './queue.js';
import { Episode, isTransient, withRetry } from '../jobs/transient.js';

export const INVITATION_MAIL_JOB = 'mail.invitations';

/** Entries claimed per round: large, because on FerretDB each round's queries scan the queue once. */
const BATCH = 1000;
/**
 * A queue entry is written before its invitation, so one without an invitation may be one whose invitation another
 * process is writing right now (which then wakes the senders again). Only after this long alone is it a leftover.
 */
const ORPHAN_AFTER_MS = 60_000;

type Signal = { touch: () => Promise<void> };

const recordingEpisodes = new WeakMap<Services, Episode>();

/**
 * The writes after an e-mail went out (its outcome, its retry time, the batch's clean-up) are retried through a
 * transient database error rather than failing the batch: a failed outcome write would leave the e-mail to be sent
 * again once the claim runs out. Each of them can be repeated safely (a second outcome keeps the first).
 */
function recorded(services: Services, write: () => Promise<unknown>): Promise<unknown> {
  let episode = recordingEpisodes.get(services);
  if (!episode) recordingEpisodes.set(services, (episode = new Episode(services.log, 'recording e-mail outcomes')));
  return withRetry(write, { episode, retryable: isTransient, givingUp: () => false });
}

export function defineInvitationMail(services: Services): void {
  services.scheduler.define(INVITATION_MAIL_JOB, (signal) => drainInvitations(services, signal), mailSweepMs(services.config));
}

/** Sends what is due, batch by batch, until nothing is due (or the mail server is failing). */
export async function drainInvitations(services: Services, signal: Signal): Promise<void> {
  /** Entries whose invitation is not written yet: left for a later run. */
  const notYet = new Set<string>();
  let next = claimBatch(services, notYet);
  for (;;) {
    const batch = await next;
    if (!batch) return;
    await signal.touch();
    // The next batch is claimed and read while this one is sent, so database and SMTP work overlap.
    next = claimBatch(services, notYet);
    const serverFailing = await sendBatch(services, batch, signal, notYet);
    if (serverFailing) {
      const unsent = await next;
      if (unsent) await services.invitations.queue.claims.deleteMany({ claim: unsent.claim });
      return;
    }
  }
}

interface Batch {
  claim: string;
  entries: QueuedInvitation[];
  /** When the claims must be renewed (half their lease), in ms. */
  renewAt: number;
  context: Context;
}

async function claimBatch(services: Services, notYet: Set<string>): Promise<Batch | undefined> {
  const { queue: q } = services.invitations;
  const lease = services.config.scheduler.lockLifetimeMs;
  // A few rounds at most: another process may take what we saw before we claim it.
  for (let round = 0; round < 3; round++) {
    const now = services.now();
    // Claims are few (the batches in progress), so all are read. A live claim belongs to another run, or to this
    // run's batch in progress. One that ran out was left by a run that died or stalled: its entries are free
    // again, unless that run got as far as recording an outcome.
    const claims = await q.claims.find({}).toArray();
    const held = new Set(claims.filter((c) => c.until > now).map((c) => c._id.toHexString()));
    for (const id of notYet) held.add(id);
    const stale = claims.filter((c) => c.until <= now).map((c) => c._id);
    if (stale.length) {
      await q.claims.deleteMany({ _id: { $in: stale }, until: { $lte: now } });
      const done = await q.outcomesOf(stale);
      if (done.size) await q.queue.deleteMany({ _id: { $in: [...done.values()].map((o) => o._id) } });
      for (const id of done.keys()) held.add(id);
    }

    // Read past what is held; one reply for all: on FerretDB each further batch of a cursor costs about as much
    // as the first.
    const limit = BATCH + held.size;
    const due = await q.queue.find({ due: { $lte: now } }, { batchSize: limit }).limit(limit).toArray();
    const free = due.filter((e) => !held.has(e._id.toHexString())).slice(0, BATCH);
    if (free.length === 0) return undefined;

    const claim = randomUUID();
    const until = new Date(now.getTime() + lease);
    try {
      await q.claims.insertMany(free.map((e) => ({ _id: e._id, claim, until })), { ordered: false });
    } catch (err) {
      // Some were claimed by another run in the meantime: the others are ours.
      if (!isDuplicateKey(err)) throw err;
    }
    const ours = new Set((await q.claims.find({ claim }, { projection: { _id: 1 } }).toArray()).map((c) => c._id.toHexString()));
    const entries = free.filter((e) => ours.has(e._id.toHexString()));
    if (entries.length) return { claim, entries, renewAt: now.getTime() + lease / 2, context: await loadContext(services, entries) };
  }
  return undefined;
}

/**
 * Sends a claimed batch, a few at a time over the SMTP pool, renewing the claims (and the job's lock) while it runs.
 * Returns true when the mail server itself failed.
 */
async function sendBatch(services: Services, batch: Batch, signal: Signal, notYet: Set<string>): Promise<boolean> {
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
    await q.claims.updateMany({ claim: batch.claim }, { $set: { until: new Date(now + lease) } });
    const kept = new Set((await q.claims.find({ claim: batch.claim }, { projection: { _id: 1 } }).toArray()).map((c) => c._id.toHexString()));
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

  if (finished.length) await recorded(services, () => q.queue.deleteMany({ _id: { $in: finished } }));
  await recorded(services, () => q.claims.deleteMany({ claim: batch.claim }));
  if (serverError !== undefined) services.log.warn({ err: serverError }, 'mail server failing; invitations will be retried');
  return serverError !== undefined;
}

/** What an invitation e-mail is made of. */
type Sendable = Pick<Invitation, 'shopId' | 'email' | 'language' | 'customer_name' | 'token' | 'unsubscribeToken'>;
const MAIL_FIELDS = { shopId: 1, email: 1, language: 1, customer_name: 1, token: 1, unsubscribeToken: 1 } as const;

interface Context {
  invitations: Map<string, Sendable>;
  shops: Map<number, Webshop | null>;
  /** Keys of unsubscribed (shop, address) pairs, see suppressionKey. */
  suppressed: Set<string>;
}

/** What the batch's e-mails need, read once per batch rather than once per e-mail. */
async function loadContext(services: Services, entries: QueuedInvitation[]): Promise<Context> {
  const found = await services.invitations.collection
    .find({ _id: { $in: entries.map((e) => e._id) } }, { batchSize: entries.length, projection: MAIL_FIELDS })
    .toArray();
  const invitations = new Map(found.map(({ _id, ...invitation }) => [_id.toHexString(), invitation as Sendable]));
  const shopIds = [...new Set(found.map((i) => i.shopId))];
  const shops = await Promise.all(shopIds.map((id) => services.webshops.get(id)));
  return {
    invitations,
    shops: new Map(shopIds.map((id, n) => [id, shops[n] ?? null])),
    suppressed: await services.suppressions.keysOf(shopIds),
  };
}

/** Sends one invitation and records how it went; returns the send error, if any. */
async function sendOne(
  services: Services,
  context: Context,
  entry: QueuedInvitation,
  finished: ObjectId[],
  notYet: Set<string>,
): Promise<unknown> {
  const { mailer } = services;
  const invitation = context.invitations.get(entry._id.toHexString());
  if (!invitation) {
    if (services.now().getTime() - entry._id.getTimestamp().getTime() < ORPHAN_AFTER_MS) return void notYet.add(entry._id.toHexString());
    // A repeat whose queue entry outlived it, a crash between the two writes, or a customer whose data was erased.
    return void finished.push(entry._id);
  }
  const shop = context.shops.get(invitation.shopId);
  if (!shop) return finish(services, entry, finished, 'failed', null, 'the webshop no longer exists');
  if (context.suppressed.has(suppressionKey(invitation.shopId, invitation.email))) {
    return finish(services, entry, finished, 'suppressed', null, 'unsubscribed');
  }

  const messageId = messageIdFor({ kind: 'invitation', invitationId: entry._id.toHexString() }, mailer.domain);
  try {
    await mailer.send(compose(services, invitation, shop, messageId));
  } catch (err) {
    await retryLater(services, entry, err, finished);
    return err;
  }
  // The one write between the server's acceptance and our record of it: keep it alone, small and immediate.
  return finish(services, entry, finished, 'sent', messageId, null);
}

function compose(services: Services, invitation: Sendable, shop: Webshop, messageId: string) {
  const { baseUrl, brandName } = services.config;
  const unsubscribeUrl = `${baseUrl}/unsubscribe/${invitation.unsubscribeToken}`;
  const content = invitationMail({
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
  services: Services,
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
async function retryLater(services: Services, entry: QueuedInvitation, err: unknown, finished: ObjectId[]): Promise<void> {
  const attempts = entry.attempts + 1;
  const next = afterFailure(attempts, classifySendError(err), services.config.mail.retryScheduleMs, services.now());
  const lastError = describeSendError(err);
  if ('giveUp' in next) {
    await finish(services, entry, finished, 'failed', null, `${next.giveUp}: ${lastError}`);
    return;
  }
  await recorded(services, () =>
    services.invitations.queue.queue.updateOne({ _id: entry._id }, { $set: { due: next.retryAt, attempts, lastError } }),
  );
}
