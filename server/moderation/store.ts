// Reports about reviews, the removals decided on them, and the key that signs the report form.
//
// - `reports`: one document per report (ObjectId, so ids sort by time); the reporter's optional e-mail is kept so
//   the operator can ask back, and is erased with the customer (customers/erase.ts).
// - `review_removals`: one document per review removed on a ground, `_id` the review id: the policy page's counts per
//   ground read this small collection instead of the reports history.
// The e-mails that tell writers their review was removed go through the mail outbox (server/mail/outbox-mail.ts).
// - `moderation_keys`: the HMAC key of the report form's token, made once and shared by every process.
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import { sameAddress } from '../email.js';
import type { Ground, ReportStatus } from './schema.js';

export interface ReportDecision {
  action: 'keep' | 'remove' | 'redact';
  ground: Ground | null;
  note: string;
  at: Date;
  /** Who decided (the operator; the token itself is never recorded). */
  by: string;
  /** For redactions: how many characters of the review's texts were replaced (the passage itself is not kept). */
  redactedChars?: number;
  /** Set when another report's decision closed this one (the review was removed). */
  viaReport?: string;
}

export interface Report {
  _id: ObjectId;
  reviewId: number;
  shopId: number;
  ground: Ground;
  text: string;
  /** '' when not given. */
  email: string;
  created: Date;
  status: ReportStatus;
  decision: ReportDecision | null;
}

interface Removal {
  /** The review id. */
  _id: number;
  shopId: number;
  ground: Ground;
  at: Date;
}

interface Key {
  _id: string;
  key: string;
}

type NewReport = Pick<Report, 'reviewId' | 'shopId' | 'ground' | 'text' | 'email'>;

export class ModerationStore {
  private readonly reports: Collection<Report>;
  private readonly removals: Collection<Removal>;
  private readonly keys: Collection<Key>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.reports = db.collection<Report>('reports');
    this.removals = db.collection<Removal>('review_removals');
    this.keys = db.collection<Key>('moderation_keys');
  }

  async ensureIndexes(): Promise<void> {
    await this.reports.createIndex({ status: 1, _id: 1 }, { name: 'status_id' });
    await this.reports.createIndex({ reviewId: 1 }, { name: 'review' });
    await this.removals.createIndex({ shopId: 1, at: 1 }, { name: 'shop_at' });
  }

  /** The form-signing key: the first process to ask creates it, every later one reads the same. */
  async formKey(): Promise<Buffer> {
    const found = await this.keys.findOne({ _id: 'report-form' });
    if (found) return Buffer.from(found.key, 'hex');
    try {
      await this.keys.insertOne({ _id: 'report-form', key: randomBytes(32).toString('hex') });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    return this.formKey();
  }

  async add(report: NewReport): Promise<Report> {
    const doc: Report = { _id: new ObjectId(), ...report, created: this.now(), status: 'open', decision: null };
    await this.reports.insertOne(doc);
    return doc;
  }

  async get(id: string): Promise<Report | null> {
    if (!ObjectId.isValid(id) || !/^[0-9a-f]{24}$/.test(id)) return null;
    return this.reports.findOne({ _id: new ObjectId(id) });
  }

  /** Oldest first (a queue), `after` the last id of the previous page. */
  async list(q: { status: ReportStatus | 'all'; limit: number; after?: string }): Promise<Report[]> {
    const filter: Record<string, unknown> = q.status === 'all' ? {} : { status: q.status };
    if (q.after) filter._id = { $gt: new ObjectId(q.after) };
    return this.reports.find(filter).sort({ _id: 1 }).limit(q.limit).toArray();
  }

  /** Records the decision on an open report; false when it was decided already (by someone else, meanwhile). */
  async decide(id: ObjectId, status: Exclude<ReportStatus, 'open'>, decision: ReportDecision): Promise<boolean> {
    const result = await this.reports.updateOne({ _id: id, status: 'open' }, { $set: { status, decision } });
    return result.modifiedCount === 1;
  }

  /** Closes the other open reports of a removed review with the same outcome. */
  async closeOthers(reviewId: number, decided: ObjectId, decision: ReportDecision): Promise<number> {
    const result = await this.reports.updateMany(
      { reviewId, status: 'open', _id: { $ne: decided } },
      { $set: { status: 'removed', decision: { ...decision, viaReport: decided.toHexString() } } },
    );
    return result.modifiedCount;
  }

  async recordRemoval(removal: Removal): Promise<void> {
    try {
      await this.removals.insertOne(removal);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** Reviews of the shop removed on each ground since `since` (grounds without removals are 0). */
  async removalsByGround(shopId: number, since: Date): Promise<Record<Ground, number>> {
    const counts: Record<Ground, number> = {
      not_experience: 0,
      offensive: 0,
      personal_data: 0,
      spam: 0,
      conflict_of_interest: 0,
      other: 0,
    };
    const found = await this.removals.find({ shopId, at: { $gte: since } }, { projection: { ground: 1 } }).toArray();
    for (const { ground } of found) counts[ground] = (counts[ground] ?? 0) + 1;
    return counts;
  }

  /**
   * Erasure: deletes the reports this address made (in one shop or all), and blanks
   * the texts of reports about the erased reviews (a report may quote them). Scans on FerretDB: erasures are rare.
   */
  async erase(email: string, shopId: number | undefined, reviewIds: readonly number[]): Promise<number> {
    const scope = shopId === undefined ? {} : { shopId };
    const deleted = await this.reports.deleteMany({ ...scope, email: sameAddress(email) });
    const blanked = reviewIds.length
      ? await this.reports.updateMany({ reviewId: { $in: [...reviewIds] }, text: { $ne: '' } }, { $set: { text: '' } })
      : { modifiedCount: 0 };
    return deleted.deletedCount + blanked.modifiedCount;
  }
}
