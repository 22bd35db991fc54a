// Operator-issued tokens for fetch_domain.json. Only a SHA-256 hash of each token is stored, so a copy of the
// database does not hand out working tokens; lookups go by hash. Valid tokens are cached for the cache TTL; a
// revocation in this process is seen at once, in other processes within the TTL (never served stale).
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../hash.js';
import type { Db, Collection } from '../db/index.js';
import type { Cache } from '../cache.js';

export interface DomainToken {
  /** SHA-256 of the token, lowercase hex. */
  hash: string;
  label: string;
  created: Date;
}

/** 256 random bits as lowercase hex. */
const newToken = (): string => randomBytes(32).toString('hex');

export class DomainTokenStore {
  private readonly collection: Collection<DomainToken>;

  /**
   * `valid`: the hashes of valid tokens. A revocation deletes its entry when it ends, which also keeps a check that
   * ran meanwhile (it may have found the token before the delete) from putting it back.
   */
  constructor(
    db: Db,
    private readonly valid: Cache<true>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<DomainToken>('domain_tokens');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ hash: 1 }, { unique: true, name: 'hash_1' });
  }

  /** Issues a token; the plain token is returned once and never stored. */
  async issue(label: string): Promise<string> {
    const token = newToken();
    await this.collection.insertOne({ hash: sha256Hex(token), label, created: this.now() });
    return token;
  }

  /** True when the token existed (and now no longer works). */
  async revoke(token: string): Promise<boolean> {
    const hash = sha256Hex(token);
    try {
      return (await this.collection.deleteOne({ hash })).deletedCount > 0;
    } finally {
      this.valid.delete(hash);
    }
  }

  // Comparing hashes in the database is not a timing oracle for the token: learning a hash prefix says nothing
  // about a token that hashes to it.
  async isValid(token: string): Promise<boolean> {
    const hash = sha256Hex(token);
    const valid = await this.valid.fetch(
      hash,
      async () => {
        const found = await this.collection.findOne({ hash }, { projection: { _id: 0, hash: 1 } });
        // Unknown tokens are not cached (undefined): random guesses would only push the valid ones out.
        return found ? true : undefined;
      },
      { bytes: () => 100 },
    );
    return valid === true;
  }
}
