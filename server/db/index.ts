// Database plumbing shared by every feature: connecting, integer id sequences and duplicate-key detection.
// Only operations that both MongoDB 6+ and FerretDB 1.24 support are used (see docs/decisions.md).
import {
  MongoClient,
  MongoServerError,
  type Db,
  type Collection,
  type Filter,
  type FindCursor,
  type OptionalUnlessRequiredId,
  type UpdateFilter,
} from 'mongodb';

export type { Db, Collection, Filter };

export async function connect(uri: string, dbName: string): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 });
  await client.connect();
  return { client, db: client.db(dbName) };
}

export function isDuplicateKey(err: unknown): err is MongoServerError {
  return err instanceof MongoServerError && err.code === 11000;
}

/**
 * How many update statements one `bulkWrite` may carry. FerretDB 1.24 never answers an `update` command of 100 or
 * more statements, and the commands queued behind it wait too (measured: 99 updates by `_id` return in 0.4 s, 100
 * never do; deletes and inserts are not affected). Every bulk update is sent in batches of this size.
 */
const UPDATE_BATCH_SIZE = 50;

/** `items` in consecutive batches small enough for one bulk update on every database we support. */
export function updateBatches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += UPDATE_BATCH_SIZE) out.push(items.slice(i, i + UPDATE_BATCH_SIZE));
  return out;
}

/** A failed insertMany/bulkWrite whose every failure is a duplicate key: a repeat of work already done. */
export function onlyDuplicateKeys(err: unknown): boolean {
  const raw = (err as { writeErrors?: unknown } | null)?.writeErrors;
  if (raw === undefined) return isDuplicateKey(err);
  const errors = (Array.isArray(raw) ? raw : [raw]) as { code?: number }[];
  return errors.length > 0 && errors.every((e) => e.code === 11000);
}

/** A cursor's documents in arrays of `size` (the last may be shorter); the cursor is closed however the caller stops. */
export async function* inBatches<T>(cursor: FindCursor<T>, size: number): AsyncGenerator<T[]> {
  try {
    let batch: T[] = [];
    for await (const doc of cursor) {
      batch.push(doc);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  } finally {
    await cursor.close();
  }
}

/**
 * Adds to a shop's counters, one small document per shop keyed by `_id` (a look-up without a scan on FerretDB):
 * other processes compare them to decide whether their copy of the shop's records is stale.
 */
export async function bumpShopCounters<T extends { _id: number }>(
  counters: Collection<T>,
  shopId: number,
  inc: Record<string, number>,
): Promise<void> {
  const shop = { _id: shopId } as Filter<T>;
  const update = { $inc: inc } as UpdateFilter<T>;
  try {
    await counters.updateOne(shop, update, { upsert: true });
  } catch (err) {
    // Two first writes of a shop both upsert its counter: the loser's increment goes to the winner's.
    if (!isDuplicateKey(err)) throw err;
    await counters.updateOne(shop, update);
  }
}

/** True when a duplicate-key error was raised by the index on `field` (FerretDB names no key: then unknown). */
function duplicateOn(err: MongoServerError, field: string): boolean | undefined {
  const pattern = err.keyPattern ?? err.keyValue;
  if (pattern) return field in pattern;
  const match = /index: (\S+)/.exec(err.message);
  return match ? match[1]!.startsWith(`${field}_`) : undefined;
}

interface Counter {
  _id: string;
  seq: number;
}

/**
 * Inserts a document numbered by the named sequence (webshops, reviews, webhooks).
 * FerretDB's findAndModify is a query followed by an update, so two callers can draw the same number: the unique
 * index on `id` turns that into a duplicate-key error and we draw again. A duplicate on another unique index is the
 * caller's business and is rethrown.
 */
export async function insertNumbered<T extends { id: number }>(
  db: Db,
  collection: Collection<T>,
  sequence: string,
  build: (id: number) => T,
): Promise<T> {
  const counters = db.collection<Counter>('counters');
  for (let attempt = 0; attempt < 50; attempt++) {
    let counter: Counter | null;
    try {
      counter = await counters.findOneAndUpdate(
        { _id: sequence },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
    } catch (err) {
      // Concurrent first uses of a sequence both upsert its counter: the loser draws again.
      if (isDuplicateKey(err)) continue;
      throw err;
    }
    const doc = build(counter?.seq ?? 1);
    try {
      await collection.insertOne(doc as OptionalUnlessRequiredId<T>);
      return doc;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Stores that key documents by their number (`_id` = id) see the taken number on either index.
      const onId = duplicateOn(err, '_id') || duplicateOn(err, 'id');
      if (onId === false) throw err;
      if (onId === undefined && (await collection.countDocuments({ id: doc.id } as Filter<T>, { limit: 1 })) === 0)
        throw err;
      // Numbers may also have been taken by imports: move the sequence past the highest id in use.
      const [highest] = await collection
        .find({}, { projection: { id: 1 } })
        .sort({ id: -1 })
        .limit(1)
        .toArray();
      if (highest) await counters.updateOne({ _id: sequence, seq: { $lt: highest.id } }, { $set: { seq: highest.id } });
    }
  }
  throw new Error(`could not allocate an id from sequence ${sequence}`);
}
