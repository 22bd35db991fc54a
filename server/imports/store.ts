// Bulk imports of reviews from other platforms (issue 19): what this feature keeps.
//
// - `imports`: one document per import (`_id` a random id): who, when, the file, what its preview found, its
//   progress and status. Read by `_id`; a shop's list is a scan of this small collection (one document per file).
// - `import_chunks`: the uploaded file in pieces of CHUNK_BYTES, `_id` `<import>:<n>`, read back by `_id` by whichever
//   process runs the import (API processes and workers share the database, not a disk). Deleted once imported.
//   Pieces stored before CHUNK_BYTES grew (1 MB) read the same way: a reader goes by the piece count only.
// - `import_keys`: one document per review ever imported into a shop, `_id` `<shop>|<identity>` (rules.ts
//   identityOf): the same file imported twice adds nothing, and an interrupted import resumes by it. Read once per
//   import run (a scan by shop), never per row.
// - `import_work` (and `import_work_claims`): what the worker has to do with an import, a work queue
//   (server/queue/work-queue.ts) keyed `<work>:<import>`: run it, undo it, apply the operator's decision on its held
//   reviews, or remove the file of an upload that died (due an hour after the upload began). Items go once done, so the drain's cost does not grow with the history of
//   imports. Before: `import_queue`, moved at start by server/migrations/import-queue.ts.
// - `import_claims`: the shop locks, `shop:<id>`, insert-only claims (server/db/claims.ts): one import of a shop runs
//   at a time, whichever worker, and the photo worker holds the same lock while it attaches a photo (photo-import.ts).
//   A lock over a shop, not over an item of either queue, so it stays apart from the queues' own claims
//   (docs/decisions/queue.md).
// - `import_mappings`: a shop's column mapping of a file in no known format, `_id` `<shop>|<sha256 of the header
//   row>`, so the next file with the same header is read the same way without asking again. Read by `_id`.
import { createHash, randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { Binary } from 'mongodb';
import { Claims } from '../db/claims.js';
import type { Collection, Db, Filter } from '../db/index.js';
import { onlyDuplicateKeys } from '../db/index.js';
import { WorkQueue } from '../queue/work-queue.js';
import type { AuditActor } from '../audit/model.js';
import type { Ground } from '../moderation/schema.js';
import type { DateOrder } from './dates.js';
import type { TextEncoding } from './decode.js';
import { headerSignature, type ColumnMapping, type FormatName } from './formats.js';
import type { RowProblem } from './rules.js';

/**
 * The size of a stored piece of a file. FerretDB finds a piece by `_id` by reading every stored piece's JSON in SQLite
 * (its `_id` index is not used for the look-up), so each read costs about the size of all stored files: fewer, larger
 * pieces make a pass over a 25 MB file 4 times cheaper than 1 MB ones did, for 4 MB in memory at a time.
 */
export const CHUNK_BYTES = 4 * 1024 * 1024;
/** How much of a piece the reader parses between two turns of the event loop. */
const SLICE_BYTES = 64 * 1024;
/** Problems kept per import (the count goes on); the operator API shows them all up to this many. */
export const PROBLEMS_KEPT = 1000;

export type ImportStatus = 'awaiting_approval' | 'running' | 'done' | 'failed' | 'undone';

export interface ImportCounts {
  read: number;
  imported: number;
  duplicates: number;
  held: number;
  problems: number;
  /** Store reviews among `imported` (the others are product reviews only). */
  store_reviews: number;
  product_reviews: number;
}

export interface PreviewReview {
  line: number;
  kind: 'store' | 'product';
  rating: number;
  title: string;
  text: string;
  name: string;
  date: string;
  held: boolean;
  reply: string | null;
  product: string | null;
}

export interface ImportPreview {
  counts: ImportCounts;
  /** Stars of the reviews to import, 1 to 5: what an operator approving the import looks at first. */
  distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
  reviews: PreviewReview[];
  problems: RowProblem[];
}

export interface Import {
  _id: string;
  shopId: number;
  status: ImportStatus;
  /** Who started it: the operator, or a dashboard user (their id). */
  by: { kind: 'operator' } | { kind: 'user'; id: string };
  created: Date;
  fileName: string;
  bytes: number;
  chunks: number;
  encoding: TextEncoding;
  format: FormatName;
  platform: string;
  dateOrder: DateOrder;
  replyAuthors: string[];
  preview: ImportPreview;
  /** The worker's counts, from the start of its latest run. */
  counts: ImportCounts;
  problems: RowProblem[];
  approved: Date | null;
  finished: Date | null;
  /** Why it failed (status `failed`). */
  error: string | null;
  /** Review ids drawn for the batch being written: an interrupted run removes what of it landed before going on. */
  pending: { from: number; to: number } | null;
  undone: Date | null;
  /** The decision on its held reviews, once applied. */
  held: HeldDecision | null;
  /**
   * The decision on its held reviews while the worker applies it (absent on imports from before the worker did):
   * `reviews` counts those decided so far, so that a run that resumes after a crash goes on counting.
   */
  heldPending?: (HeldDecision & { actor: AuditActor }) | null;
  /** Format `mapped`: the shop's mapping of the file's columns (absent on imports made before mappings existed). */
  mapping?: ColumnMapping | null;
  /** The photo URLs of its reviews, fetched by the worker once it is done (photo-import.ts); absent before. */
  photos?: ImportPhotoCounts;
}

interface HeldDecision {
  action: 'keep' | 'remove';
  ground: Ground | null;
  /** When the operator decided. */
  at: Date;
  reviews: number;
}

interface ImportPhotoCounts {
  queued: number;
  fetched: number;
  failed: number;
  /** Why the latest failed one failed (`<url>: <reason>`), for the operator. */
  last_failure: string | null;
}

interface RememberedMapping {
  /** `<shop>|<sha256 of the header row>`. */
  _id: string;
  shopId: number;
  mapping: ColumnMapping;
  updated: Date;
}

interface Chunk {
  _id: string;
  data: Binary;
}

interface ImportKey {
  /** `<shop>|<identity>`. */
  _id: string;
  shopId: number;
  importId: string;
  /** The store review's id; null for a product review (kept in imported_product_reviews under the same key). */
  reviewId: number | null;
  held: boolean;
}

/**
 * What the worker does with an import: run it, undo it, apply the decision on its held reviews, or remove the file of
 * an upload that died.
 */
export type ImportWork = 'run' | 'undo' | 'held' | 'discard';

/** An item of the import queue, as the queue stores it (its key is `<work>:<importId>`). */
interface ImportWorkPayload {
  importId: string;
  shopId: number;
  work: ImportWork;
}

/** An item taken off the queue by a worker. */
export interface QueuedImport extends ImportWorkPayload {
  key: string;
}

export const IMPORT_WORK_QUEUE = 'import_work';
/** The shop locks: one import of a shop at a time, the photo worker's attach included. */
const SHOP_LOCKS = 'import_claims';
/** A file whose upload never finished (the process died) is removed this long after it began. */
const ABANDONED_UPLOAD_MS = 3_600_000;

const workKey = (work: ImportWork, importId: string) => `${work}:${importId}`;
const shopLock = (shopId: number) => `shop:${shopId}`;

export const emptyCounts = (): ImportCounts => ({
  read: 0,
  imported: 0,
  duplicates: 0,
  held: 0,
  problems: 0,
  store_reviews: 0,
  product_reviews: 0,
});

export const keyId = (shopId: number, key: string) => `${shopId}|${key}`;

export class ImportStore {
  private readonly imports: Collection<Import>;
  private readonly chunks: Collection<Chunk>;
  private readonly keys: Collection<ImportKey>;
  private readonly queue: WorkQueue<ImportWorkPayload>;
  private readonly shopLocks: Claims;
  private readonly mappings: Collection<RememberedMapping>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.mappings = db.collection<RememberedMapping>('import_mappings');
    this.imports = db.collection<Import>('imports');
    this.chunks = db.collection<Chunk>('import_chunks');
    this.keys = db.collection<ImportKey>('import_keys');
    this.queue = new WorkQueue<ImportWorkPayload>(db, IMPORT_WORK_QUEUE, now);
    this.shopLocks = new Claims(db, SHOP_LOCKS, now);
  }

  async ensureIndexes(): Promise<void> {
    await this.imports.createIndex({ shopId: 1, created: -1 }, { name: 'shop_created' });
    await this.keys.createIndex({ shopId: 1 }, { name: 'shop' });
    await this.keys.createIndex({ importId: 1 }, { name: 'import' });
    await this.queue.ensureIndexes();
  }

  newId(): string {
    return `imp_${randomBytes(12).toString('hex')}`;
  }

  async putChunk(importId: string, n: number, data: Uint8Array): Promise<void> {
    await this.chunks.insertOne({ _id: `${importId}:${n}`, data: new Binary(data) });
  }

  /**
   * The file's bytes in order, read by `_id` one piece at a time and handed out in slices of SLICE_BYTES with a turn
   * of the event loop between them: the reader parses what it is handed at once, and a whole piece (thousands of
   * rows) would hold up the requests this process answers meanwhile (the import runs in the API's process with
   * ROLE=all).
   */
  async *file(importId: string, chunks: number): AsyncGenerator<Uint8Array> {
    for (let n = 0; n < chunks; n++) {
      const chunk = await this.chunks.findOne({ _id: `${importId}:${n}` });
      if (!chunk) throw new Error(`import ${importId}: piece ${n} of its file is missing`);
      const bytes = chunk.data.buffer;
      for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
        yield bytes.subarray(at, at + SLICE_BYTES);
        await setImmediate();
      }
    }
  }

  async dropFile(importId: string, chunks: number): Promise<void> {
    for (let n = 0; n < chunks; n += 50) {
      const ids = Array.from({ length: Math.min(50, chunks - n) }, (_, i) => `${importId}:${n + i}`);
      await this.chunks.bulkWrite(ids.map((_id) => ({ deleteOne: { filter: { _id } } })));
    }
  }

  /** Removes one piece of a file whose piece count is unknown (an upload that died); false when there was none. */
  async dropPieceIfThere(importId: string, n: number): Promise<boolean> {
    return (await this.chunks.deleteOne({ _id: `${importId}:${n}` })).deletedCount === 1;
  }

  async insert(doc: Import): Promise<void> {
    await this.imports.insertOne(doc);
  }

  /** An import of the shop, read by `_id` alone (FerretDB answers only that without a scan), then its shop checked. */
  async get(shopId: number, importId: string): Promise<Import | null> {
    const doc = await this.imports.findOne({ _id: importId });
    return doc?.shopId === shopId ? doc : null;
  }

  async remove(importId: string): Promise<void> {
    await this.imports.deleteOne({ _id: importId });
  }

  /** A shop's imports, newest first (a scan of a collection with one document per file). */
  list(shopId: number, limit = 100): Promise<Import[]> {
    return this.imports.find({ shopId }).sort({ created: -1 }).limit(limit).toArray();
  }

  /** Moves the import from one status to another; false when it was no longer in `from`. */
  async move(importId: string, from: ImportStatus, set: Partial<Import>): Promise<boolean> {
    const result = await this.imports.updateOne({ _id: importId, status: from }, { $set: set });
    return result.modifiedCount === 1;
  }

  async update(importId: string, set: Partial<Import>): Promise<void> {
    await this.imports.updateOne({ _id: importId }, { $set: set });
  }

  /** Every import that is done, across shops, with its photo counts (a start-up backfill's scan). */
  done(): Promise<Pick<Import, '_id' | 'shopId' | 'photos'>[]> {
    return this.imports.find({ status: 'done' }, { projection: { _id: 1, shopId: 1, photos: 1 } }).toArray();
  }

  /** Records the decision on the held reviews as pending; false when the import is not done or one is pending. */
  async requestHeldDecision(importId: string, pending: NonNullable<Import['heldPending']>): Promise<boolean> {
    const result = await this.imports.updateOne(
      { _id: importId, status: 'done', $or: [{ heldPending: null }, { heldPending: { $exists: false } }] },
      { $set: { heldPending: pending } },
    );
    return result.modifiedCount === 1;
  }

  /** Counts reviews the pending decision has decided (`$inc`: a batch is counted once, after its writes). */
  async countHeldDecided(importId: string, reviews: number): Promise<void> {
    if (reviews) await this.imports.updateOne({ _id: importId }, { $inc: { 'heldPending.reviews': reviews } });
  }

  /**
   * Queues work on an import, due at `due` (a no-op while the same work on it is queued). An upload's `discard` is
   * due ABANDONED_UPLOAD_MS after `due`, the time it began: only an upload that died is still there then.
   */
  async queueWork(work: ImportWork, importId: string, shopId: number, due: Date = this.now()): Promise<boolean> {
    const at = work === 'discard' ? new Date(due.getTime() + ABANDONED_UPLOAD_MS) : due;
    return this.queue.enqueue(workKey(work, importId), { importId, shopId, work }, at);
  }

  /** Takes the work back undone (an upload that ended, refused or stored, needs no discarding). */
  cancelWork(work: ImportWork, importId: string): Promise<void> {
    return this.queue.cancel([workKey(work, importId)]);
  }

  /** The next work due that `holder` now holds for `leaseMs`, past the keys in `skip`; undefined when none is. */
  async nextWork(holder: string, leaseMs: number, skip: ReadonlySet<string>): Promise<QueuedImport | undefined> {
    const [item] = await this.queue.take(holder, 1, leaseMs, skip);
    return item && { key: item._id, ...item.payload };
  }

  /** The work is done (or has nothing left to do): it goes, then the holder's claim. */
  workDone(holder: string, item: QueuedImport): Promise<void> {
    return this.queue.finish(holder, item.key);
  }

  /** The work failed: due again at `at`, the failure counted and kept. */
  retryWork(holder: string, item: QueuedImport, at: Date, error: string): Promise<void> {
    return this.queue.retryLater(holder, item.key, at, error.slice(0, 500));
  }

  /** Lets go of the work `holder` holds (its shop was busy): due as it was, for the next run. */
  releaseWork(holder: string): Promise<void> {
    return this.queue.release(holder);
  }

  /** The work queued (tests, the operator's view): a few items. */
  async queuedWork(limit = 100): Promise<(QueuedImport & { due: Date; attempts: number; lastError: string | null })[]> {
    return (await this.queue.peek(limit)).map((i) => ({
      key: i._id,
      due: i.due,
      attempts: i.attempts,
      lastError: i.lastError,
      ...i.payload,
    }));
  }

  /** Locks the shop for `holder` (an import's run or undo, a photo's attach); false when another holds it. */
  lockShop(shopId: number, holder: string, leaseMs: number): Promise<boolean> {
    return this.shopLocks.claimOne(shopLock(shopId), holder, leaseMs);
  }

  unlockShop(shopId: number, holder: string): Promise<void> {
    return this.shopLocks.release(holder, [shopLock(shopId)]);
  }

  /** A long run: extends the holder's claim on its work and its shop lock. */
  async renewWork(holder: string, leaseMs: number): Promise<void> {
    await this.queue.renew(holder, leaseMs);
    await this.shopLocks.renew(holder, leaseMs);
  }

  /** Removes claims, locks and take-over markers that ran out before `before` (left by workers that died). */
  async pruneClaims(before: Date): Promise<void> {
    await this.queue.prune(before);
    await this.shopLocks.prune(before);
  }

  /** Every identity already imported into the shop, with the import that brought it: read once per run. */
  async knownKeys(shopId: number): Promise<Map<string, { importId: string; held: boolean }>> {
    const known = new Map<string, { importId: string; held: boolean }>();
    const prefix = `${shopId}|`.length;
    const cursor = this.keys.find({ shopId }, { projection: { _id: 1, importId: 1, held: 1 } }).batchSize(5000);
    for await (const k of cursor) known.set(k._id.slice(prefix), { importId: k.importId, held: k.held });
    return known;
  }

  async addKeys(keys: ImportKey[]): Promise<void> {
    if (!keys.length) return;
    try {
      await this.keys.insertMany(keys, { ordered: false });
    } catch (err) {
      if (!onlyDuplicateKeys(err)) throw err;
    }
  }

  /** An interrupted batch: forgets the keys of the reviews whose ids it drew (a scan, after a crash only). */
  async forgetKeysOfRange(importId: string, range: { from: number; to: number }): Promise<void> {
    await this.keys.deleteMany({ importId, reviewId: { $gte: range.from, $lte: range.to } } as Filter<ImportKey>);
  }

  /** Undo: the import's reviews may be imported again (a scan by import). */
  async forgetKeysOf(importId: string): Promise<void> {
    await this.keys.deleteMany({ importId });
  }

  /** The mapping the shop gave for a file with this header row, if it gave one. */
  async mappingFor(shopId: number, header: readonly string[]): Promise<ColumnMapping | undefined> {
    return (await this.mappings.findOne({ _id: mappingId(shopId, header) }))?.mapping;
  }

  /**
   * The photo counts, moved as the photo worker goes (`$inc`, so that several workers may count at once); `set`: the
   * number of URLs queued, and the latest failure (`<url>: <reason>`).
   */
  async countPhotos(
    importId: string,
    inc: Partial<Record<'fetched' | 'failed', number>>,
    set: { queued?: number; last_failure?: string } = {},
  ): Promise<void> {
    const $inc = Object.fromEntries(Object.entries(inc).map(([k, v]) => [`photos.${k}`, v]));
    const $set: Record<string, unknown> = {};
    if (set.queued !== undefined) $set['photos.queued'] = set.queued;
    if (set.last_failure !== undefined) $set['photos.last_failure'] = set.last_failure.slice(0, 500);
    const update = {
      ...(Object.keys($inc).length ? { $inc } : {}),
      ...(Object.keys($set).length ? { $set } : {}),
    };
    if (Object.keys(update).length) await this.imports.updateOne({ _id: importId }, update);
  }

  async rememberMapping(shopId: number, header: readonly string[], mapping: ColumnMapping, at: Date): Promise<void> {
    await this.mappings.replaceOne(
      { _id: mappingId(shopId, header) },
      { shopId, mapping, updated: at },
      { upsert: true },
    );
  }
}

const mappingId = (shopId: number, header: readonly string[]) =>
  `${shopId}|${createHash('sha256').update(headerSignature(header)).digest('hex')}`;
