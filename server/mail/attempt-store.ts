// Failed attempts at review e-mails and when each is tried again (`mail_attempts`, one document per Message-ID):
// the review itself is written only once a message went out (mail/reviews.ts).
import type { Collection, Db } from '../db/index.js';
import { mentionsAddress } from '../email.js';
import type { ReviewMailKind } from './review-queue.js';

export interface MailAttempt {
  /** The Message-ID. */
  _id: string;
  reviewId: number;
  kind: ReviewMailKind;
  attempts: number;
  /** Not before then: the next retry. */
  nextAttempt: Date;
  failed: boolean;
  lastError: string | null;
}

export class MailAttemptStore {
  private readonly collection: Collection<MailAttempt>;

  constructor(db: Db) {
    this.collection = db.collection<MailAttempt>('mail_attempts');
  }

  /** The attempts at these e-mails so far, by Message-ID (one `_id` look-up). */
  async byMessageIds(messageIds: readonly string[]): Promise<Map<string, MailAttempt>> {
    if (!messageIds.length) return new Map();
    const found = await this.collection.find({ _id: { $in: [...messageIds] } }).toArray();
    return new Map(found.map((a) => [a._id, a]));
  }

  async record(messageId: string, attempt: Omit<MailAttempt, '_id'>): Promise<void> {
    await this.collection.updateOne({ _id: messageId }, { $set: attempt }, { upsert: true });
  }

  /** The e-mail went out: its failed attempts are history. */
  async remove(messageId: string): Promise<void> {
    await this.collection.deleteOne({ _id: messageId });
  }

  /**
   * Erasure: the attempts at e-mails about these reviews (their errors may quote the address) and, with `address`,
   * every attempt whose error quotes it. A scan on FerretDB; erasures are rare.
   */
  async forget(reviewIds: readonly number[], address?: string): Promise<number> {
    const quoting = address ? [{ lastError: mentionsAddress(address) }] : [];
    const result = await this.collection.deleteMany({ $or: [{ reviewId: { $in: [...reviewIds] } }, ...quoting] });
    return result.deletedCount;
  }
}
