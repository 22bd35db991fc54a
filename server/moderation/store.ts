// Reports about reviews, the removals decided on them, and the key that signs the report form.
//
// - `reports`: one document per report (ObjectId, so ids sort by time); the reporter's optional e-mail is kept so
//   the operator can ask back, and is erased with the customer (customers/erase.ts).
// - `review_removals`: one document per review removed on a ground, `_id` the review id: the policy page's counts per
//   ground read this small collection instead of the reports history.
// The e-mails that tell writers their review was removed go through the mail outbox (server/mail/outbox-mail.ts).
// - `moderation_keys`: the HMAC key of the report form's token, made once and shared by every process.
// - `appeal_tokens`: the complaint links (`/appeal/{token}`) sent with a decision, keyed by the token's SHA-256 (the
//   token itself is never stored); each says which decision and whose (writer or reporter), valid six months.
// - `appeal_claims`: one per decision and person (`<report id>:<role>`), insert-only: one complaint each.
// - `withheld_texts`: what a removal or redaction took from a review, kept apart by decision (`_id` the report id)
//   so that a reversed decision can give it back; deleted when the six months are over or by erasure.
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey, onlyDuplicateKeys } from '../db/index.js';
import { sameAddress } from '../email.js';
import type { Language } from '../languages.js';
import type { Ground, ReportSource, ReportStatus } from './schema.js';
import type { Reply } from '../reviews/model.js';

/** How long a decision can be contested (DSA Art. 20: at least six months), and its removed text kept. */
export const APPEAL_DAYS = 183;

export interface ReportDecision {
  action: 'keep' | 'remove' | 'redact' | 'uphold' | 'reverse' | 'dismiss';
  ground: Ground | null;
  note: string;
  /** The statement of reasons e-mailed to the writer (removals and redactions); absent otherwise. */
  statement?: string;
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
  /** The language of the page the report was made on (its outcome e-mail's); absent before it was kept. */
  language?: Language;
  /** What put it in the queue; absent on reports stored before complaints existed: a report. */
  source?: ReportSource;
  /** A complaint (`source: "appeal"`): the decision contested (its report id) and who contests it. */
  appeal?: { report: string; role: AppealRole; language: Language };
  /** An automatic signal (`source: "signal"`, server/signals): its name and evidence (review ids and figures). */
  signal?: SignalEvidence & { name: string };
  /** Issue 20: the one photo of the review reported (its id); absent when the whole review is. */
  photo?: string;
}

export interface SignalEvidence {
  review_ids: number[];
  figures: Record<string, number>;
  /** Why, in a word, where figures say nothing (`insider`: `dashboard_user` or `shop_domain`). */
  basis?: string;
}

export type AppealRole = 'writer' | 'reporter';

/**
 * What the e-mail says: the writer's review was removed or redacted; the reporter's report led to this outcome; a
 * complaint was answered. Notices stored before kinds existed are removals told to their writer.
 */
export type NoticeKind = 'removed' | 'redacted' | 'kept' | 'appeal_upheld' | 'appeal_reversed';

/** What started a decision, as the writer is told it (never who reported, nor what they wrote). */
export type DecisionTrigger = 'report' | 'signal' | 'own_check';

export interface AppealToken {
  /** SHA-256 of the token (hex). */
  _id: string;
  /** The report whose decision may be contested. */
  report: string;
  role: AppealRole;
  reviewId: number;
  shopId: number;
  /** Who was sent the link, so the complaint can be answered (erased with the customer). */
  email: string;
  language: Language;
  expires: Date;
}

export interface WithheldTexts {
  /** The report id of the decision that took them. */
  _id: string;
  reviewId: number;
  shopId: number;
  name: string;
  email: string;
  comment: string | null;
  reply: Reply | null;
  /** The product texts, in the review's product order. */
  products: string[];
  expires: Date;
  /** Issue 20: photos a redaction or a removal withheld (their files are kept until `expires`, then deleted). */
  photos?: string[];
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
  private readonly appealTokens: Collection<AppealToken>;
  private readonly appealClaims: Collection<{ _id: string; complaint: string }>;
  private readonly withheld: Collection<WithheldTexts>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.reports = db.collection<Report>('reports');
    this.removals = db.collection<Removal>('review_removals');
    this.keys = db.collection<Key>('moderation_keys');
    this.appealTokens = db.collection<AppealToken>('appeal_tokens');
    this.appealClaims = db.collection<{ _id: string; complaint: string }>('appeal_claims');
    this.withheld = db.collection<WithheldTexts>('withheld_texts');
  }

  async ensureIndexes(): Promise<void> {
    await this.withheld.createIndex({ expires: 1 }, { name: 'expires' });
    await this.appealTokens.createIndex({ expires: 1 }, { name: 'expires' });
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

  async add(report: NewReport & Pick<Report, 'source' | 'appeal' | 'language' | 'signal' | 'photo'>): Promise<Report> {
    const doc: Report = { _id: new ObjectId(), ...report, created: this.now(), status: 'open', decision: null };
    await this.reports.insertOne(doc);
    return doc;
  }

  /** A complaint that lost the race for its claim. */
  async removeReport(id: ObjectId): Promise<void> {
    await this.reports.deleteOne({ _id: id });
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

  /** Removals of many reviews at once (a bulk decision); one already recorded for a review stays as it was. */
  async recordRemovals(removals: readonly Removal[]): Promise<void> {
    if (!removals.length) return;
    try {
      await this.removals.insertMany([...removals], { ordered: false });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
  }

  /** Takes back the removals recorded at `at` of reviews that a bulk decision then left as they were. */
  async forgetRemovals(reviewIds: readonly number[], at: Date): Promise<void> {
    if (reviewIds.length) await this.removals.deleteMany({ _id: { $in: [...reviewIds] }, at });
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
    // The texts a decision took from the erased reviews, and the complaint links sent to the address.
    const withheld = await this.withheld.deleteMany(
      reviewIds.length
        ? { $or: [{ reviewId: { $in: [...reviewIds] } }, { email: sameAddress(email) }] }
        : { email: sameAddress(email) },
    );
    const tokens = await this.appealTokens.deleteMany({ ...scope, email: sameAddress(email) });
    return deleted.deletedCount + blanked.modifiedCount + withheld.deletedCount + tokens.deletedCount;
  }

  /** Stores a complaint link by its digest (appeal-token.ts makes the token). */
  async addAppealToken(token: AppealToken): Promise<void> {
    await this.appealTokens.insertOne(token);
  }

  /** The complaint link's record, read by its digest; null when unknown or expired. */
  async appealToken(digest: string, now: Date): Promise<AppealToken | null> {
    const found = await this.appealTokens.findOne({ _id: digest });
    return found && found.expires > now ? found : null;
  }

  /** Claims the one complaint of a person about a decision; false when they made it already. */
  async claimAppeal(report: string, role: AppealRole, complaint: string): Promise<boolean> {
    try {
      await this.appealClaims.insertOne({ _id: `${report}:${role}`, complaint });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /** Whether the person already complained about the decision (the page says so instead of showing the form). */
  async hasAppealed(report: string, role: AppealRole): Promise<boolean> {
    return (await this.appealClaims.findOne({ _id: `${report}:${role}` })) !== null;
  }

  async withhold(texts: WithheldTexts): Promise<void> {
    try {
      await this.withheld.insertOne(texts);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  async withheldTexts(report: string): Promise<WithheldTexts | null> {
    return this.withheld.findOne({ _id: report });
  }

  /**
   * Erasure: the reviews whose withheld texts are this address's (a removed review has no address of its own any
   * more), so that the photos withheld with them go before the texts do.
   */
  async withheldReviewsOf(email: string, shopId: number | undefined): Promise<number[]> {
    const scope = shopId === undefined ? {} : { shopId };
    const found = await this.withheld
      .find({ ...scope, email: sameAddress(email) }, { projection: { reviewId: 1 } })
      .toArray();
    return [...new Set(found.map((w) => w.reviewId))];
  }

  async dropWithheld(report: string): Promise<void> {
    await this.withheld.deleteOne({ _id: report });
  }

  /**
   * The six months are over: the kept texts and the complaint links go. Both collections hold only what is younger
   * than six months (each entry is its own due date), so this reads no history.
   */
  /** Photos withheld by decisions whose six months are over (read before dropExpired, which forgets them). */
  async expiredPhotos(now: Date): Promise<{ reviewId: number; photos: string[] }[]> {
    const due = await this.withheld
      .find({ expires: { $lte: now }, photos: { $exists: true } }, { projection: { reviewId: 1, photos: 1 } })
      .toArray();
    return due.filter((w) => w.photos?.length).map((w) => ({ reviewId: w.reviewId, photos: w.photos! }));
  }

  async dropExpired(now: Date): Promise<number> {
    const texts = await this.withheld.deleteMany({ expires: { $lte: now } });
    const tokens = await this.appealTokens.deleteMany({ expires: { $lte: now } });
    return texts.deletedCount + tokens.deletedCount;
  }

  /** The policy page's counts: a removal reversed on appeal no longer counts. */
  async forgetRemoval(reviewId: number): Promise<void> {
    await this.removals.deleteOne({ _id: reviewId });
  }
}
