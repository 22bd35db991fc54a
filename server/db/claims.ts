// Claims with a lease: which worker holds an item of work (an invitation to send, a delivery to attempt), until when.
//
// A claim is a document keyed by the item's `_id` in a small collection of its own; inserting it is the claim, and a
// duplicate key means someone else holds the item. That is atomic on MongoDB and on FerretDB alike, where
// findAndModify is a query followed by an update (two workers could both "win") and every filter but an exact `{_id}`
// scans the collection. A claim runs out at `until`: its holder died or stalled, and the item may be taken over.
//
// Taking over is the delicate part: deleting the old claim and inserting a new one lets a slow taker delete the
// claim a quicker taker just made. So a take-over first inserts a marker keyed by the item and the old holder: of
// all the workers that saw the same expired claim exactly one inserts it, and only that one rewrites the claim (by
// `_id` and old holder). Markers live as long as claims and go with `prune`.
//
// The collection stays as small as the work in progress: callers `release` what they finished, and `prune` removes
// what holders that died left behind.
import type { ObjectId } from 'mongodb';
import type { Collection, Db } from './index.js';
import { isDuplicateKey } from './index.js';

type ClaimKey = string | ObjectId;

/** A claim as stored. The field names are those `invitation_claims` used before this module, so both read alike. */
interface ClaimDoc {
  _id: ClaimKey;
  /** Who holds it: one id per claiming run (e.g. a `randomUUID()`), not per process. */
  claim: string;
  until: Date;
  /** Set on take-over markers, which are not claims. */
  takeover?: true;
}

interface HeldClaim<K extends ClaimKey> {
  key: K;
  holder: string;
  until: Date;
}

interface WriteError {
  index: number;
  code?: number;
}

const keyString = (key: ClaimKey): string => (typeof key === 'string' ? key : key.toHexString());
const markerId = (key: ClaimKey, holder: string): string => `takeover\n${keyString(key)}\n${holder}`;

export class Claims<K extends ClaimKey = string> {
  private readonly claims: Collection<ClaimDoc>;

  constructor(
    db: Db,
    /** The collection's name, one per kind of work (`invitation_claims`, `webhook_claims`). */
    name: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.claims = db.collection<ClaimDoc>(name);
  }

  async ensureIndexes(): Promise<void> {
    await this.claims.createIndex({ claim: 1 }, { name: 'claim' });
    await this.claims.createIndex({ until: 1 }, { name: 'until' });
  }

  /**
   * Claims these items for `holder` for `leaseMs`; returns the ones it got: those nobody held, and those whose
   * claim had run out (taken over). One insert for all, plus a read and two writes per item held by someone else.
   */
  async claim(keys: readonly K[], holder: string, leaseMs: number): Promise<K[]> {
    if (keys.length === 0) return [];
    const until = new Date(this.now().getTime() + leaseMs);
    const taken = await this.insertAll(keys, holder, until);
    if (taken.length === 0) return [...keys];
    const takenKeys = taken.map((i) => keys[i]!);
    const existing = await this.claims.find({ _id: { $in: takenKeys } }).toArray();
    const now = this.now();
    const won = new Set<string>();
    for (const doc of existing) {
      if (doc.takeover || doc.until > now) continue;
      if (await this.takeOver(doc, holder, until)) won.add(keyString(doc._id));
    }
    const free = new Set(taken);
    return keys.filter((key, i) => !free.has(i) || won.has(keyString(key)));
  }

  /** Claims one item; true when `holder` got it. */
  async claimOne(key: K, holder: string, leaseMs: number): Promise<boolean> {
    return (await this.claim([key], holder, leaseMs)).length === 1;
  }

  /**
   * Extends every claim of `holder` by `leaseMs` from now; returns the keys it still holds (one that ran out may have
   * been taken over meanwhile: its item is no longer this holder's to work on).
   */
  async renew(holder: string, leaseMs: number): Promise<Set<string>> {
    const until = new Date(this.now().getTime() + leaseMs);
    await this.claims.updateMany({ claim: holder, takeover: { $exists: false } }, { $set: { until } });
    return this.keysOf(holder);
  }

  /** The keys (as strings: ObjectIds in hex) that `holder` holds now. */
  async keysOf(holder: string): Promise<Set<string>> {
    const docs = await this.claims.find({ claim: holder }, { projection: { _id: 1, takeover: 1 } }).toArray();
    return new Set(docs.filter((d) => !d.takeover).map((d) => keyString(d._id)));
  }

  /**
   * Every claim, live and run out (claims are few: the work in progress). Callers skip the live ones and may decide,
   * for a run-out one, that its holder got far enough (e.g. recorded an outcome) before `claim` takes it over.
   */
  async all(): Promise<{ live: HeldClaim<K>[]; expired: HeldClaim<K>[] }> {
    const now = this.now();
    const held = (await this.claims.find({ takeover: { $exists: false } }).toArray()).map((d) => ({
      key: d._id as K,
      holder: d.claim,
      until: d.until,
    }));
    return { live: held.filter((c) => c.until > now), expired: held.filter((c) => c.until <= now) };
  }

  /** Gives up these items (finished, or left for later), or with no keys every claim of `holder`. */
  async release(holder: string, keys?: readonly K[]): Promise<void> {
    if (keys && keys.length === 0) return;
    await this.claims.deleteMany(
      keys ? { claim: holder, _id: { $in: [...keys] } } : { claim: holder, takeover: { $exists: false } },
    );
  }

  /** Removes the claims of these items whoever holds them (the items are gone: done elsewhere, or erased). */
  async forget(keys: readonly K[]): Promise<void> {
    if (keys.length === 0) return;
    await this.claims.deleteMany({ _id: { $in: [...keys] } });
  }

  /**
   * Removes claims and markers that ran out before `before` (no TTL indexes on FerretDB). Give holders a margin (a
   * lease or more): a claim renewed while this runs may go too, and its holder then finds it lost at its next renewal.
   */
  async prune(before: Date): Promise<number> {
    return (await this.claims.deleteMany({ until: { $lt: before } })).deletedCount;
  }

  /** Inserts a claim per key; returns the indexes of the keys someone else holds. */
  private async insertAll(keys: readonly K[], holder: string, until: Date): Promise<number[]> {
    try {
      await this.claims.insertMany(
        keys.map((_id) => ({ _id, claim: holder, until })),
        { ordered: false },
      );
      return [];
    } catch (err) {
      const raw = (err as { writeErrors?: WriteError | WriteError[] }).writeErrors;
      if (raw === undefined) {
        if (isDuplicateKey(err) && keys.length === 1) return [0];
        throw err;
      }
      const errors = Array.isArray(raw) ? raw : [raw];
      if (!errors.every((e) => e.code === 11000)) throw err;
      return errors.map((e) => e.index);
    }
  }

  /** Takes over a claim that ran out; false when another taker was first (or its holder came back and finished). */
  private async takeOver(expired: ClaimDoc, holder: string, until: Date): Promise<boolean> {
    try {
      await this.claims.insertOne({ _id: markerId(expired._id, expired.claim), claim: holder, until, takeover: true });
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
    const result = await this.claims.updateOne(
      { _id: expired._id, claim: expired.claim },
      { $set: { claim: holder, until } },
    );
    return result.modifiedCount === 1;
  }
}
