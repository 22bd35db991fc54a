// Which review a link secret opens: edit and confirmation tokens → review id, in a small collection keyed by the
// token. The pages /edit/{token} and /confirm/{token} are public and their tokens guessable in form; a filter on the
// reviews' token fields reads every review on FerretDB, so each request (a wrong token too) would scan the history.
// This is one look-up by `_id`, and the review is then read by id.
//
// Kept by the review store: an entry is added before a review carrying a new token is written. An entry may name a
// review that no longer carries the token (a new one was issued, the review was erased): readers check the review.
// The tokens are random secrets, no personal data.
import type { Collection, Db } from '../db/index.js';
import { onlyDuplicateKeys } from '../db/index.js';
import { MigrationMarkers } from '../db/migrations.js';

interface LinkEntry {
  /** The token as it appears in the link. */
  _id: string;
  reviewId: number;
}

const BACKFILL = 'reviews.link-index';

export class ReviewLinkStore {
  private readonly entries: Collection<LinkEntry>;

  constructor(private readonly db: Db) {
    this.entries = db.collection<LinkEntry>('review_links');
  }

  /** Records that the tokens (nulls skipped) open review `reviewId`; a repeat is harmless. */
  async add(reviewId: number, tokens: readonly (string | null | undefined)[]): Promise<void> {
    await this.addMany([{ id: reviewId, tokens }]);
  }

  /** `add` for many reviews at once: one insert for all their tokens. */
  private async addMany(
    reviews: readonly { id: number; tokens: readonly (string | null | undefined)[] }[],
  ): Promise<void> {
    const entries = reviews.flatMap((r) =>
      r.tokens.filter((t): t is string => typeof t === 'string' && t !== '').map((_id) => ({ _id, reviewId: r.id })),
    );
    if (!entries.length) return;
    try {
      await this.entries.insertMany(entries, { ordered: false });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
  }

  /** The id of the review the token was issued for; null when it is unknown (one look-up by `_id`). */
  async reviewOf(token: string): Promise<number | null> {
    return (await this.entries.findOne({ _id: token }))?.reviewId ?? null;
  }

  /**
   * Once per database (a marker in `migrations`): indexes the tokens of reviews written before the index existed.
   * One scan of the reviews at the first start-up; adding is idempotent, so a start-up that dies half-way repeats it.
   */
  async backfill(
    reviews: () => AsyncIterable<{ id: number; editToken: string | null; confirmToken: string | null }>,
  ): Promise<void> {
    await new MigrationMarkers(this.db).runOnce(BACKFILL, async () => {
      let batch: { id: number; tokens: (string | null)[] }[] = [];
      // One insert per batch: an insert per review is a round trip each, minutes for 20,000 reviews on FerretDB.
      const flush = async () => {
        await this.addMany(batch);
        batch = [];
      };
      for await (const r of reviews()) {
        batch.push({ id: r.id, tokens: [r.editToken, r.confirmToken] });
        if (batch.length >= 500) await flush();
      }
      await flush();
    });
  }
}
