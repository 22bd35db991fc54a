// Operator-issued tokens for fetch_domain.json. Only a SHA-256 hash of each token is stored, so a copy of the
// database does not hand out working tokens; lookups go by hash. Valid tokens are cached for the cache TTL; a
// revocation in this process is seen at once, in other processes within the TTL.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../hash.js';
import type { Db, Collection } from '../db/index.js';
import { BoundedCache, type CacheLimits } from '../cache.js';

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
  private readonly valid: BoundedCache<true>;
  /**
   * Counts the starts and ends of revocations. A check caches its answer only when none began or ended while it ran:
   * otherwise it may have found the token before the delete and would put it back in the cache after it.
   */
  private revocations = 0;

  constructor(
    db: Db,
    cacheLimits: CacheLimits,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<DomainToken>('domain_tokens');
    this.valid = new BoundedCache(cacheLimits);
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
    this.revocations++;
    try {
      return (await this.collection.deleteOne({ hash })).deletedCount > 0;
    } finally {
      this.revocations++;
      this.valid.delete(hash);
    }
  }

  // Comparing hashes in the database is not a timing oracle for the token: learning a hash prefix says nothing
  // about a token that hashes to it.
  async isValid(token: string): Promise<boolean> {
    const hash = sha256Hex(token);
    if (this.valid.get(hash)) return true;
    const revocationsAtStart = this.revocations;
    const found = await this.collection.findOne({ hash }, { projection: { _id: 0, hash: 1 } });
    // Unknown tokens are not cached: random guesses would only push the valid ones out.
    if (found && this.revocations === revocationsAtStart) this.valid.set(hash, true, 100);
    return found !== null;
  }
}
