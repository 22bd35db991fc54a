// A work queue: items of one kind of work, each queued once under a key, taken when due by one worker at a time
// (a claim with a lease), then finished, retried later, or given up. The mail outbox (server/mail/outbox-mail.ts),
// the invitation e-mails and their reminders (server/invitations/queue.ts, reminder-queue.ts) are built on it.
//
// Two small collections per kind of work, never shared between kinds (on FerretDB even an `_id` read slows with the
// collection's size, so one kind's backlog must not slow another's):
// - `<name>`: one document per item still to do (`_id` the key, `due`, failed `attempts`, `lastError`, `payload`).
//   Finished and given-up items are deleted, so the collection stays as small as the work in progress and the one
//   read that is not by `_id` (what is due) scans only that;
// - `<name>_claims`: who holds an item, until when (server/db/claims.ts: inserting the claim is the claim, atomic on
//   FerretDB too, where a conditional update or findAndModify is a read followed by a write).
//
// The order of writes is what keeps an item from being done twice: an item is deleted (or its due time moved) before
// its claim is released, and a taker reads the item again by `_id` after it got the claim, so an item finished by
// another worker between the taker's first read and its claim is seen to be gone. A worker that dies holding items
// leaves claims that run out after the lease: the items are still due, and the next `take` takes them over. The
// work itself must tolerate a repeat after such a crash (for e-mail: the same Message-ID).
import type { Collection, Db } from '../db/index.js';
import { Claims } from '../db/claims.js';
import { GroupInsert } from '../db/group-insert.js';

export interface WorkItem<P> {
  /** The key: a second enqueue with it is a no-op while the item is queued. */
  _id: string;
  /** Not before then: when queued, later the next retry. */
  due: Date;
  /** Failed attempts so far. */
  attempts: number;
  lastError: string | null;
  queued: Date;
  /** What to do, as the kind of work defines it. */
  payload: P;
}

/** An item as `take` gives it out: `takenOver` when a holder that died or stalled had it (its work may be done). */
export type TakenItem<P> = WorkItem<P> & { takenOver?: true };

/** Up to this many items are read one `_id` look-up each; more, with one read of the collection. */
const BY_KEY_READS = 20;

type History = Pick<WorkItem<unknown>, 'attempts' | 'lastError'>;

export class WorkQueue<P> {
  private readonly items: Collection<WorkItem<P>>;
  private readonly claims: Claims;
  /** Enqueues arriving together go in one insert (group commit): invitations come in bursts. */
  private readonly inserts: GroupInsert<WorkItem<P>>;
  /**
   * Releases that failed (a transient database error), by holder: every claim of it, or these keys. Done again before
   * the next take: otherwise what a run let go of stays held until its lease runs out, and nothing wakes a run then
   * (the periodic one, for photos an hour on, finds it).
   */
  private readonly unreleased = new Map<string, Set<string> | 'all'>();

  constructor(
    db: Db,
    /** The kind's collection (`mail_outbox`); its claims go to `<name>_claims`. */
    readonly name: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.items = db.collection<WorkItem<P>>(name);
    this.claims = new Claims(db, `${name}_claims`, now);
    this.inserts = new GroupInsert(this.items);
  }

  async ensureIndexes(): Promise<void> {
    await this.items.createIndex({ due: 1 }, { name: 'due' });
    await this.claims.ensureIndexes();
  }

  /**
   * Queues an item due at `due`; false when an item with this key is queued already (nothing changes then).
   * `history`: the failed attempts of an item moved here from an older queue.
   */
  async enqueue(
    key: string,
    payload: P,
    due: Date = this.now(),
    history: History = { attempts: 0, lastError: null },
  ): Promise<boolean> {
    return (await this.inserts.insert({ _id: key, due, ...history, queued: this.now(), payload })) === 'inserted';
  }

  /**
   * Takes items off the queue undone, whoever holds them (their purpose went: a repeat taken back, a record erased).
   * Their claims, if any, run out and are pruned.
   */
  async cancel(keys: readonly string[]): Promise<void> {
    if (keys.length) await this.items.deleteMany({ _id: { $in: [...keys] } });
  }

  /** The item queued under `key`, if any (one read by `_id`). */
  async get(key: string): Promise<WorkItem<P> | undefined> {
    return (await this.items.findOne({ _id: key })) ?? undefined;
  }

  /**
   * The items queued under these keys (the others are gone: finished, or never queued). A read by `_id` each, which
   * FerretDB answers without a filter scan; a long list reads the collection once instead (it is small).
   */
  async getMany(keys: readonly string[]): Promise<WorkItem<P>[]> {
    const found =
      keys.length <= BY_KEY_READS
        ? await Promise.all(keys.map((_id) => this.items.findOne({ _id })))
        : await this.items.find({ _id: { $in: [...keys] } }).toArray();
    return found.flatMap((item) => (item ? [item] : []));
  }

  /**
   * Up to `limit` queued items, earliest due first, whoever holds them and whether due or not: a look at the queue
   * (tests, health views), not a way to take work.
   */
  peek(limit: number): Promise<WorkItem<P>[]> {
    return this.items.find({}).sort({ due: 1, _id: 1 }).limit(limit).toArray();
  }

  /**
   * Up to `limit` items due now, claimed for `holder` for `leaseMs`, earliest first. Items another worker holds (or
   * this one, in a batch still in progress) are left to it, and so are the keys in `skip`; items whose holder's lease
   * ran out are taken over, and marked so. The holder finishes, retries or gives up each one, or releases what it did
   * not get to.
   */
  async take(
    holder: string,
    limit: number,
    leaseMs: number,
    skip: ReadonlySet<string> = new Set(),
  ): Promise<TakenItem<P>[]> {
    await this.releaseLeftovers();
    // A few rounds at most: what looked free may have been held after all (a holder renewed a claim that had run
    // out), and the due items behind it are then read in the next round.
    for (let round = 0; round < 3; round++) {
      const { taken, contested } = await this.takeOnce(holder, limit, leaseMs, skip);
      if (taken.length > 0 || !contested) return taken;
    }
    return [];
  }

  /** One round of `take`; `contested` when due items were seen but none could be claimed. */
  private async takeOnce(
    holder: string,
    limit: number,
    leaseMs: number,
    skip: ReadonlySet<string>,
  ): Promise<{ taken: TakenItem<P>[]; contested: boolean }> {
    const now = this.now();
    // Claims are few (the work in progress): all are read, so that what is held is read past rather than tried.
    const { live, expired } = await this.claims.all();
    const held = new Set([...skip, ...live.map((c) => c.key)]);
    const max = limit + held.size;
    const due = await this.items
      .find({ due: { $lte: now } }, { projection: { _id: 1 }, batchSize: max })
      .sort({ due: 1, _id: 1 })
      .limit(max)
      .toArray();
    const free = due.filter((d) => !held.has(d._id)).slice(0, limit);
    if (free.length === 0) return { taken: [], contested: false };
    const keys = free.map((d) => d._id);
    let ready: WorkItem<P>[];
    try {
      const won = await this.claims.claim(keys, holder, leaseMs);
      if (won.length === 0) return { taken: [], contested: true };
      // Read again under the claim: another worker may have finished or postponed an item since the first read.
      const current = await this.items.find({ _id: { $in: won } }, { batchSize: won.length }).toArray();
      ready = current.filter((item) => item.due <= now).sort((a, b) => a.due.getTime() - b.due.getTime());
      const readyIds = new Set(ready.map((item) => item._id));
      await this.letGo(
        holder,
        won.filter((id) => !readyIds.has(id)),
      );
    } catch (err) {
      // The caller never learns what was claimed (possibly all of it, even when the insert's answer was an error):
      // let go of it now rather than when the lease runs out.
      await this.letGo(holder, keys).catch(() => undefined);
      throw err;
    }
    const orphaned = new Set(expired.map((c) => c.key));
    return {
      taken: ready.map((item) => (orphaned.has(item._id) ? { ...item, takenOver: true } : item)),
      contested: ready.length === 0,
    };
  }

  /** Extends the holder's claims (a long run); returns the keys it still holds. */
  renew(holder: string, leaseMs: number): Promise<Set<string>> {
    return this.claims.renew(holder, leaseMs);
  }

  /** Done: the item goes, then its claim. */
  async finish(holder: string, key: string): Promise<void> {
    await this.items.deleteOne({ _id: key });
    await this.letGo(holder, [key]);
  }

  /** Done, a batch at once: the items go in one delete, then their claims. */
  async finishAll(holder: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.items.deleteMany({ _id: { $in: [...keys] } });
    await this.letGo(holder, keys);
  }

  /**
   * Not yet: due again at `at`, no failure counted (or, with `history`, the attempts and error as they now stand).
   * The holder releases its claim afterwards (with the rest of its batch).
   */
  async postpone(key: string, at: Date, history?: History): Promise<void> {
    await this.items.updateOne({ _id: key }, { $set: { due: at, ...history } });
  }

  /** Not done, try again at `at`: the failed attempt is counted and its error kept. */
  async retryLater(holder: string, key: string, at: Date, error: string): Promise<void> {
    await this.items.updateOne({ _id: key }, { $set: { due: at, lastError: error }, $inc: { attempts: 1 } });
    await this.letGo(holder, [key]);
  }

  /** Never to be done (rejected, out of retries, its purpose gone): the item goes. The caller records why. */
  giveUp(holder: string, key: string): Promise<void> {
    return this.finish(holder, key);
  }

  /**
   * Lets go of everything `holder` still holds (a run that ends, or stops early): the items stay due for the next
   * run. The holder takes nothing more afterwards: a release that fails is done again at this queue's next take.
   */
  release(holder: string): Promise<void> {
    return this.letGo(holder);
  }

  /** Releases `holder`'s claims on `keys` (all of them without), remembering a release that failed for the next take. */
  private async letGo(holder: string, keys?: readonly string[]): Promise<void> {
    if (keys?.length === 0) return;
    try {
      await this.claims.release(holder, keys);
      const known = this.unreleased.get(holder);
      if (!keys) this.unreleased.delete(holder);
      else if (known instanceof Set) for (const key of keys) known.delete(key);
    } catch (err) {
      const known = this.unreleased.get(holder);
      if (!keys) this.unreleased.set(holder, 'all');
      else if (known !== 'all') this.unreleased.set(holder, new Set([...(known ?? []), ...keys]));
      throw err;
    }
  }

  private async releaseLeftovers(): Promise<void> {
    for (const [holder, keys] of this.unreleased) {
      await this.claims.release(holder, keys === 'all' ? undefined : [...keys]);
      this.unreleased.delete(holder);
    }
  }

  /**
   * Erasure: deletes the items whose payload matches `filter` (fields of the payload, given by the caller, never a
   * client's object). A scan of the small collection.
   */
  async forget(filter: Record<string, unknown>): Promise<number> {
    return (await this.remove(filter)).length;
  }

  /**
   * Erasure: deletes the items whose payload matches `filter` or, with `quoting`, whose last error matches it (SMTP
   * servers quote the address); returns them. A scan of the small collection.
   */
  async remove(
    filter: Record<string, unknown>,
    quoting?: { $regex: string; $options: string },
  ): Promise<WorkItem<P>[]> {
    const scoped = Object.fromEntries(Object.entries(filter).map(([field, value]) => [`payload.${field}`, value]));
    const doomed = await this.items.find(quoting ? { $or: [scoped, { lastError: quoting }] } : scoped).toArray();
    if (doomed.length === 0) return [];
    const keys = doomed.map((d) => d._id);
    await this.items.deleteMany({ _id: { $in: keys } });
    await this.claims.forget(keys);
    return doomed;
  }

  /**
   * Erasure: the items whose payload matches `filter` (fields of the payload, given by the caller) get the payload
   * `rewrite` makes of theirs, keeping their key, due time and attempts. Returns how many. A scan of the small
   * collection, then one write by `_id` each.
   */
  async rewrite(filter: Record<string, unknown>, rewrite: (payload: P) => P): Promise<number> {
    const scoped = Object.fromEntries(Object.entries(filter).map(([field, value]) => [`payload.${field}`, value]));
    const found = await this.items.find(scoped).toArray();
    for (const item of found)
      await this.items.updateOne({ _id: item._id }, { $set: { payload: rewrite(item.payload) } });
    return found.length;
  }

  /**
   * Erasure: deletes these items and, with `quoting`, every item whose last error matches it (SMTP servers quote the
   * address), whichever item it belonged to. A scan of the small collection.
   */
  async forgetKeys(keys: readonly string[], quoting?: { $regex: string; $options: string }): Promise<number> {
    const byKey = { _id: { $in: [...keys] } };
    const deleted = await this.items.deleteMany(quoting ? { $or: [byKey, { lastError: quoting }] } : byKey);
    await this.claims.forget(keys);
    return deleted.deletedCount;
  }

  /** How many items are queued (the operator's health view, tests). */
  size(): Promise<number> {
    return this.items.countDocuments();
  }

  /** Removes claims and take-over markers that ran out before `before` (no TTL indexes on FerretDB). */
  prune(before: Date): Promise<number> {
    return this.claims.prune(before);
  }
}
