// The operator's versions of the policy page's service-wide texts, one small document per language (`_id` the
// language): read by `_id` only. A language without one shows the defaults (strings.ts).
import type { Collection, Db } from '../db/index.js';
import { DEFAULT_OPERATOR_TEXT, type OperatorText, type PolicyLanguage } from './strings.js';

interface StoredText extends OperatorText {
  _id: PolicyLanguage;
  updated: Date;
}

export class PolicyTextStore {
  private readonly collection: Collection<StoredText>;
  /** The texts change rarely and every policy page reads them: kept per language until this process changes them. */
  private readonly cache = new Map<PolicyLanguage, { text: OperatorText; custom: boolean; loaded: number }>();

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
    private readonly ttlMs = 60_000,
  ) {
    this.collection = db.collection<StoredText>('policy_texts');
  }

  /** The text in force for the language, and whether the operator wrote it. */
  async get(lang: PolicyLanguage): Promise<{ text: OperatorText; custom: boolean }> {
    const cached = this.cache.get(lang);
    if (cached && Date.now() - cached.loaded < this.ttlMs) return cached;
    const found = await this.collection.findOne({ _id: lang });
    const entry = found
      ? {
          text: { checks: found.checks, publication: found.publication, reporting: found.reporting },
          custom: true,
          loaded: Date.now(),
        }
      : { text: DEFAULT_OPERATOR_TEXT[lang], custom: false, loaded: Date.now() };
    this.cache.set(lang, entry);
    return entry;
  }

  async put(lang: PolicyLanguage, text: OperatorText): Promise<void> {
    const doc = { checks: text.checks, publication: text.publication, reporting: text.reporting, updated: this.now() };
    await this.collection.updateOne({ _id: lang }, { $set: doc }, { upsert: true });
    this.cache.delete(lang);
  }

  /** Back to the defaults. */
  async reset(lang: PolicyLanguage): Promise<void> {
    await this.collection.deleteOne({ _id: lang });
    this.cache.delete(lang);
  }
}
