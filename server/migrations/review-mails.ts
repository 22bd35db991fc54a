// Start-up step: the e-mails about reviews that a version before the work queue queued in `review_mail_queue`, with
// their failed attempts in `mail_attempts` (one document per Message-ID), move to the work queue `review_mail`
// (server/mail/review-queue.ts), keeping their due time (or their retry time, when later), attempts and last error,
// so the drain sends them with the Message-ID they would have had. An e-mail the old code had given up is not queued
// again. An entry an old worker still holds (a live claim in `review_mail_claims`, keyed by the Message-ID: the new
// claims there are keyed by the queue key, so the two never meet) is left to it, and moved at the next start if it
// is still there. The attempts go too (no reader is left for them), but those of the entries left to an old worker.
// No marker: only older versions write the old collections, so after the first run every start reads empty ones.
import type { ObjectId } from 'mongodb';
import type { ReviewMailKind } from '../mail/model.js';
import type { Services } from '../services.js';

/** An entry as the versions before the work queue stored it. */
interface LegacyEntry {
  _id: string;
  reviewId: number;
  kind: ReviewMailKind;
  due: Date;
}

/** A failed attempt as they stored it. */
interface LegacyAttempt {
  /** The Message-ID. */
  _id: string;
  attempts: number;
  nextAttempt: Date;
  failed: boolean;
  lastError: string | null;
}

export const LEGACY_REVIEW_MAIL_QUEUE = 'review_mail_queue';
export const LEGACY_MAIL_ATTEMPTS = 'mail_attempts';

/** The Message-ID the old code gave the entry's e-mail (message-id.ts: the key holds the reply's revision). */
const legacyMessageId = (entry: LegacyEntry, domain: string): string =>
  `<review.${entry.reviewId}.${entry.kind === 'reply' ? `reply.${entry._id.split(':')[2]}` : entry.kind}@${domain.toLowerCase()}>`;

/** Returns how many e-mails were moved to the work queue. */
export async function migrateReviewMails({
  db,
  now,
  mailer,
  reviewMails,
}: Pick<Services, 'db' | 'mailer' | 'now' | 'reviewMails'>): Promise<number> {
  const legacy = db.collection<LegacyEntry>(LEGACY_REVIEW_MAIL_QUEUE);
  const attempts = db.collection<LegacyAttempt>(LEGACY_MAIL_ATTEMPTS);
  const entries = await legacy.find({}).toArray();
  if (entries.length === 0 && (await attempts.countDocuments()) === 0) return 0;
  const claims = db.collection<{ _id: string | ObjectId; until: Date }>('review_mail_claims');
  const ids = entries.map((e) => legacyMessageId(e, mailer.domain));
  const live = new Set(
    (await claims.find({ _id: { $in: ids }, until: { $gt: now() } }).toArray()).map((c) => String(c._id)),
  );
  const known = new Map((await attempts.find({ _id: { $in: ids } }).toArray()).map((a) => [a._id, a]));
  let moved = 0;
  for (const [n, entry] of entries.entries()) {
    const messageId = ids[n]!;
    if (live.has(messageId)) continue;
    const attempt = known.get(messageId);
    if (!attempt?.failed) {
      const due = attempt && attempt.nextAttempt > entry.due ? attempt.nextAttempt : entry.due;
      const history = { attempts: attempt?.attempts ?? 0, lastError: attempt?.lastError ?? null };
      if (await reviewMails.adopt(entry._id, { reviewId: entry.reviewId, kind: entry.kind }, due, history)) moved++;
    }
    await legacy.deleteOne({ _id: entry._id });
  }
  await attempts.deleteMany({ _id: { $nin: [...live] } });
  return moved;
}
