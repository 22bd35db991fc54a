// The operator's versions of the policy page's service-wide texts, one small document per language (`_id` the
// language): read by `_id` only. A language without one shows the defaults (strings.ts).
import type { Cache } from '../cache.js';
import type { Collection, Db } from '../db/index.js';
import { DEFAULT_OPERATOR_TEXT, type OperatorText, type PolicyLanguage } from './strings.js';

interface StoredText extends OperatorText {
  _id: PolicyLanguage;
  updated: Date;
}

export class PolicyTextStore {
  private readonly collection: Collection<StoredText>;

  /** `cache`: the texts by language. They change rarely and every policy page reads them. */
  constructor(
    db: Db,
    private readonly cache: Cache<{ text: OperatorText; custom: boolean }>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<StoredText>('policy_texts');
  }

  /** The text in force for the language, and whether the operator wrote it. */
  async get(lang: PolicyLanguage): Promise<{ text: OperatorText; custom: boolean }> {
    return this.cache.fetch(
      lang,
      async () => {
        const found = await this.collection.findOne({ _id: lang });
        return found
          ? { text: { checks: found.checks, publication: found.publication, reporting: found.reporting }, custom: true }
          : { text: DEFAULT_OPERATOR_TEXT[lang], custom: false };
      },
      { bytes: (t) => 256 + 2 * (t.text.checks.length + t.text.publication.length + t.text.reporting.length) },
    );
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
