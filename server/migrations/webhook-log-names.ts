// Start-up step, once (marker `webhook_delivery_log.public_names`; docs/decisions.md, "Stored field names"): the log
// entries of a version before the public names (`eventId`, `durationMs` in `webhook_delivery_log`) are copied into
// `webhook_attempts` under `event_id` and `duration_ms`, then the old collection is dropped. A copy, not updates in
// place: FerretDB 1.24 updated about 23 entries a second by `_id` (87 s for 2,000; the log holds 30 days of attempts),
// and inserts in batches are some hundred times faster. Idempotent: a copy repeated after a crash keeps each entry's
// `_id` and inserts nothing twice.
import { MongoBulkWriteError, MongoServerError, type ObjectId } from 'mongodb';
import { onlyDuplicateKeys, type Collection } from '../db/index.js';
import { MigrationMarkers } from '../db/migrations.js';
import type { Services } from '../services.js';
import type { DeliveryLogEntry } from '../webhooks/model.js';

const MARKER = 'webhook_delivery_log.public_names';
const LEGACY_LOG = 'webhook_delivery_log';
const COPY_BATCH = 500;

type Copied = DeliveryLogEntry & { _id: ObjectId };
/** A log entry as versions before the public names stored it. */
type LegacyLogEntry = Omit<DeliveryLogEntry, 'event_id' | 'duration_ms'> & {
  _id: ObjectId;
  eventId: string;
  durationMs: number;
};

/** Returns how many entries were copied (0 once the marker is set). */
export async function migrateWebhookLogNames({ db, now }: Pick<Services, 'db' | 'now'>): Promise<number> {
  let copied = 0;
  await new MigrationMarkers(db, now).runOnce(MARKER, async () => {
    const legacy = db.collection<LegacyLogEntry>(LEGACY_LOG);
    const log = db.collection<Copied>('webhook_attempts');
    let batch: Copied[] = [];
    const flush = async () => {
      copied += await insertNew(log, batch);
      batch = [];
    };
    for await (const entry of legacy.find({})) {
      batch.push(renamed(entry));
      if (batch.length === COPY_BATCH) await flush();
    }
    await flush();
    await legacy.drop().catch((err: unknown) => {
      // Another process starting at the same time dropped it first.
      if (!isNamespaceMissing(err)) throw err;
    });
  });
  return copied;
}

function renamed({ eventId, durationMs, ...kept }: LegacyLogEntry): Copied {
  return { ...kept, event_id: eventId, duration_ms: durationMs };
}

/** Inserts the entries, leaving those already there (same `_id`) as they are; how many were new. */
async function insertNew(collection: Collection<Copied>, docs: Copied[]): Promise<number> {
  if (docs.length === 0) return 0;
  try {
    return (await collection.insertMany(docs, { ordered: false })).insertedCount;
  } catch (err) {
    if (!onlyDuplicateKeys(err)) throw err;
    return err instanceof MongoBulkWriteError ? err.insertedCount : 0;
  }
}

const isNamespaceMissing = (err: unknown): boolean =>
  err instanceof MongoServerError && err.codeName === 'NamespaceNotFound';
