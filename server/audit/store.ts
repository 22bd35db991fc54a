// The audit trail: who did what, when, to which shop's data. Moderation decisions, removals and other operator or
// writer actions that change what the public sees are recorded here, so a shop or a writer asking "why is my review
// gone?" gets an answer from the record, not from memory.
//
// Entries are insert-only and never hold an e-mail address in clear: callers pass ids, and any address-looking
// string that slips into `details` is stored as its SHA-256 (an erasure then has nothing to find here).
import { randomBytes } from 'node:crypto';
import type { Collection, Db } from '../db/index.js';
import { isDuplicateKey } from '../db/index.js';
import { sha256Hex } from '../hash.js';
import type { AuditActor, AuditEntry, NewAuditEntry } from './model.js';

// The model is model.ts's (types only: a feature that records or shows an action names no store); re-exported here.
export type { AuditActor, AuditEntry } from './model.js';

interface AuditDoc {
  /** `<ISO time>:<random>`: unique, and sorts like `at` so ties in `at` still page in a stable order. */
  _id: string;
  at: Date;
  shopId: number | null;
  actor: AuditActor;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

/** The most entries one list call returns. */
export const AUDIT_LIST_MAX = 500;

const ADDRESS = /[^\s@<>"']+@[^\s@<>"']+\.[^\s@<>"']+/g;

/** Replaces every e-mail address inside strings (at any depth) by `sha256:<hex of the lower-cased address>`. */
function withoutAddresses<T>(value: T): T {
  if (typeof value === 'string') {
    return value.replace(ADDRESS, (address) => `sha256:${sha256Hex(address.toLowerCase())}`) as T;
  }
  if (Array.isArray(value)) return value.map((v) => withoutAddresses(v)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutAddresses(v)])) as T;
  }
  return value;
}

export class AuditStore {
  private readonly collection: Collection<AuditDoc>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<AuditDoc>('audit_log');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ shopId: 1, _id: -1 }, { name: 'shop_id' });
  }

  /**
   * `once`: an entry that work resumed after a crash may record again (a bulk decision applied by the worker) is
   * recorded once: stamped with the time of the decision and keyed by `once.key`, a repeat finds it there.
   */
  async record(entry: NewAuditEntry, once?: { at: Date; key: string }): Promise<void> {
    const at = once?.at ?? this.now();
    const doc = {
      _id: `${at.toISOString()}:${once?.key ?? randomBytes(6).toString('hex')}`,
      at,
      shopId: entry.shopId,
      actor: withoutAddresses(entry.actor.id === undefined ? { kind: entry.actor.kind } : { ...entry.actor }),
      action: entry.action,
      target: entry.target === undefined ? null : withoutAddresses(entry.target),
      details: withoutAddresses(entry.details ?? {}),
    };
    try {
      await this.collection.insertOne(doc);
    } catch (err) {
      if (!once || !isDuplicateKey(err)) throw err;
    }
  }

  /** One shop's entries, newest first, a page at a time, and how many it has (the merchant dashboard's trail). */
  async page(shopId: number, offset: number, limit: number): Promise<{ items: AuditEntry[]; total: number }> {
    const [docs, total] = await Promise.all([
      this.collection.find({ shopId }).sort({ _id: -1 }).skip(offset).limit(Math.min(limit, AUDIT_LIST_MAX)).toArray(),
      this.collection.countDocuments({ shopId }),
    ]);
    return { items: docs.map(({ _id, ...rest }) => ({ id: _id, ...rest })), total };
  }

  /** Newest first; `before` pages back (entries strictly older than it). */
  async list(q: { shopId?: number; limit: number; before?: Date }): Promise<AuditEntry[]> {
    const filter: Record<string, unknown> = {};
    if (q.shopId !== undefined) filter.shopId = q.shopId;
    if (q.before) filter._id = { $lt: q.before.toISOString() };
    const limit = Math.max(1, Math.min(AUDIT_LIST_MAX, Math.floor(q.limit)));
    const docs = await this.collection.find(filter).sort({ _id: -1 }).limit(limit).toArray();
    return docs.map(({ _id, ...rest }) => ({ id: _id, ...rest }));
  }
}
