// Bulk imports of reviews from other platforms (issue 19): receiving the file, its preview, the run in the worker,
// approval, the decision on held reviews and undo. The rules that span stores live here: the imports' own records
// (store.ts), the shop's reviews (ReviewStore, through its bulk import methods: no events, no e-mails), the product
// reviews kept apart from the shop's score (product-review-store.ts), the removals the policy page counts, the audit.
//
// A run reads the file twice from the database (read.ts: first the format, day/month order and WooCommerce replies,
// then the rows), every identity already imported into the shop once, and writes batches of BATCH reviews. It starts
// from the top of the file each time: what an earlier run imported is recognised by its key and counted again, so
// counts hold after a crash, and a batch interrupted between its writes (its drawn ids are recorded first) is removed
// and written again.
import type { AuditActor } from '../audit/model.js';
import { HttpError } from '../http/errors.js';
import { normalizeLanguage } from '../languages.js';
import type { ImportedReviewDraft } from '../reviews/model.js';
import type { Review } from '../reviews/model.js';
import type { Ground } from '../moderation/schema.js';
import type { Services } from '../services.js';
import { formatTimestamp } from '../time.js';
import type { Webshop } from '../webshops/model.js';
import { mainLanguage } from '../webshops/rules.js';
import type { DateOrder } from './dates.js';
import { EncodingSniffer, ImportFileError, type TextEncoding } from './decode.js';
import type { ColumnMapping, FormatName } from './formats.js';
import type { ImportedProductReview } from './model.js';
import { analyse, importRows, MappingNeeded, type Analysis, type OpenBytes, type ReadOptions } from './read.js';
import type { ImportItem, RowProblem } from './rules.js';
import { countWrite } from '../compliance/follower.js';
import { cancelImportPhotos, dropPhotosOfRemoved, dropProductReviewPhotos, queueImportPhotos } from './photo-import.js';
import {
  CHUNK_BYTES,
  emptyCounts,
  keyId,
  PROBLEMS_KEPT,
  type Import,
  type ImportCounts,
  type ImportPreview,
  type PreviewReview,
  type QueuedImport,
} from './store.js';

/** Reviews decided or removed per write (held reviews, undo). */
const BATCH = 100;
/** Rows read per batch of a run: one update of the import, one insert of identities, PIECE reviews per insert. */
const RUN_BATCH = 200;
/** Reviews (and product reviews) per insert in a run: each holds the database's one writer for a short while. */
const PIECE = 25;
/** Review ids drawn at a time by a run: one counter update every few batches (a crash leaves a gap in the ids). */
const ID_BLOCK = RUN_BATCH * 10;
/** The longest a run's write waits for the API's writes in flight in this process (server/http/activity.ts). */
const YIELD_MAX_MS = 100;
/** All told, a run waits for the API's writes at most this share of the time its own writes took. */
const YIELD_SHARE = 1 / 2;
/** How long after it finished an import may be undone. */
const UNDO_DAYS = 30;
/** How long a worker holds an import's work and its shop without renewing. */
const LEASE_MS = 5 * 60_000;
/** A run renews its claims when this much of the lease has gone (not at every batch: two writes and a read each). */
const RENEW_AFTER_MS = LEASE_MS / 5;
/** Work that failed (the database went away, a bug) is tried again this long after. */
const RETRY_MS = 60_000;
/** Claims left by workers that died are removed a day after they ran out. */
const PRUNE_AFTER_MS = 86_400_000;
export const IMPORT_JOB = 'imports.run';

export type ImportActor = { kind: 'operator' } | { kind: 'user'; id: string };

export interface ImportRequest {
  format?: FormatName | undefined;
  dateOrder?: DateOrder | undefined;
  dryRun: boolean;
  replyAuthors: string[];
  /** A file in no known format: which column holds what (else the shop's mapping for the same header, if any). */
  mapping?: ColumnMapping | undefined;
}

const auditActor = (by: ImportActor): AuditActor => (by.kind === 'operator' ? { kind: 'operator' } : by);

/** The upload as it arrives: stored piece by piece (every process reaches the database) and judged as it passes. */
export class ImportUpload {
  readonly id: string;
  bytes = 0;
  chunks = 0;
  private readonly sniffer = new EncodingSniffer();
  private buffer: Buffer[] = [];
  private buffered = 0;

  constructor(
    private readonly services: Pick<Services, 'imports' | 'now'>,
    readonly shopId: number,
  ) {
    this.id = services.imports.newId();
  }

  /** Marks the upload as begun: should the process die before it ends, the worker removes what was stored. */
  async begin(): Promise<void> {
    await this.services.imports.queueWork('discard', this.id, this.shopId, this.services.now());
  }

  async add(data: Buffer): Promise<void> {
    this.sniffer.push(data);
    this.bytes += data.length;
    this.buffer.push(data);
    this.buffered += data.length;
    while (this.buffered >= CHUNK_BYTES) {
      const all = Buffer.concat(this.buffer);
      await this.services.imports.putChunk(this.id, this.chunks++, all.subarray(0, CHUNK_BYTES));
      this.buffer = [all.subarray(CHUNK_BYTES)];
      this.buffered = all.length - CHUNK_BYTES;
    }
  }

  async end(): Promise<TextEncoding> {
    if (this.buffered > 0) await this.services.imports.putChunk(this.id, this.chunks++, Buffer.concat(this.buffer));
    this.buffer = [];
    this.buffered = 0;
    return this.sniffer.encoding();
  }

  /** Removes what was stored (a refused file, a dry run). */
  async discard(): Promise<void> {
    await this.services.imports.dropFile(this.id, this.chunks);
    await this.services.imports.cancelWork('discard', this.id);
  }
}

const opener =
  (services: Pick<Services, 'imports'>, importId: string, chunks: number): OpenBytes =>
  () =>
    services.imports.file(importId, chunks);

const previewOf = (item: ImportItem): PreviewReview => ({
  line: item.line,
  kind: item.kind,
  rating: item.rating,
  title: item.title,
  text: item.text.slice(0, 500),
  name: item.name,
  date: formatTimestamp(item.date),
  held: item.held,
  reply: item.reply?.text.slice(0, 500) ?? null,
  product: item.product ? item.product.name || item.product.external_id : null,
});

function countItem(counts: ImportCounts, item: ImportItem): void {
  counts.imported++;
  if (item.held) counts.held++;
  if (item.kind === 'store') counts.store_reviews++;
  else counts.product_reviews++;
}

/** What importing the file would do, without writing: counts, star distribution, the first reviews and problems. */
async function previewFile(
  services: Pick<Services, 'imports' | 'now'>,
  shopId: number,
  open: OpenBytes,
  encoding: TextEncoding,
  given: ReadOptions,
): Promise<{ analysis: Analysis; preview: ImportPreview; mapping: ColumnMapping | undefined }> {
  let options = given;
  let analysis: Analysis;
  try {
    analysis = await analyse(open, encoding, options);
  } catch (err) {
    // A header of no known format: the shop's mapping for the same header, when it gave one before.
    const remembered =
      err instanceof MappingNeeded ? await services.imports.mappingFor(shopId, err.columns) : undefined;
    if (!remembered) throw err;
    options = { ...options, mapping: remembered };
    analysis = await analyse(open, encoding, options);
  }
  const known = await services.imports.knownKeys(shopId);
  const seen = new Set<string>();
  const counts = emptyCounts();
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  const reviews: PreviewReview[] = [];
  const problems: RowProblem[] = [];
  for await (const batch of importRows(open, encoding, analysis, { ...options, now: services.now() })) {
    for (const outcome of batch) {
      counts.read++;
      if ('reason' in outcome) {
        counts.problems++;
        if (problems.length < PROBLEMS_KEPT) problems.push(outcome);
      } else if ('key' in outcome) {
        if (known.has(outcome.key) || seen.has(outcome.key)) {
          counts.duplicates++;
          continue;
        }
        seen.add(outcome.key);
        countItem(counts, outcome);
        distribution[String(outcome.rating) as keyof typeof distribution]++;
        if (reviews.length < 10) reviews.push(previewOf(outcome));
      }
    }
  }
  return { analysis, preview: { counts, distribution, reviews, problems }, mapping: options.mapping };
}

export type StartResult =
  | { dryRun: true; analysis: Analysis; preview: ImportPreview; mapping: ColumnMapping | undefined }
  | { dryRun: false; import: Import };

/**
 * After the upload: refuses a file that cannot be imported (ImportFileError: nothing stored remains), answers a dry
 * run with its preview, or records the import: running at once (operator API, or IMPORT_APPROVAL=none), or waiting
 * for the operator's approval (dashboard).
 */
export async function startImport(
  services: Pick<Services, 'audit' | 'config' | 'imports' | 'now' | 'scheduler'>,
  shop: Webshop,
  upload: ImportUpload,
  meta: { fileName: string; by: ImportActor },
  request: ImportRequest,
): Promise<StartResult> {
  let result: { analysis: Analysis; preview: ImportPreview; mapping: ColumnMapping | undefined };
  let encoding: TextEncoding;
  try {
    encoding = await upload.end();
    result = await previewFile(services, shop.id, opener(services, upload.id, upload.chunks), encoding, request);
  } catch (err) {
    await upload.discard();
    throw err;
  }
  if (request.dryRun) {
    await upload.discard();
    return { dryRun: true, ...result };
  }
  const waits = meta.by.kind === 'user' && services.config.importApproval === 'operator';
  const doc: Import = {
    _id: upload.id,
    shopId: shop.id,
    status: waits ? 'awaiting_approval' : 'running',
    by: meta.by,
    created: services.now(),
    fileName: meta.fileName.slice(0, 200),
    bytes: upload.bytes,
    chunks: upload.chunks,
    encoding,
    format: result.analysis.format,
    platform: result.analysis.platform,
    dateOrder: result.analysis.dateOrder,
    replyAuthors: request.replyAuthors,
    preview: result.preview,
    counts: emptyCounts(),
    problems: [],
    approved: waits ? null : services.now(),
    finished: null,
    error: null,
    pending: null,
    undone: null,
    held: null,
    mapping: result.mapping ?? null,
  };
  await services.imports.insert(doc);
  // The shop's mapping is remembered for its next file with the same header row.
  if (result.mapping) {
    await services.imports.rememberMapping(shop.id, result.analysis.header, result.mapping, services.now());
  }
  if (!waits) await queueRun(services, doc);
  await services.imports.cancelWork('discard', upload.id);
  await services.audit.record({
    shopId: shop.id,
    actor: auditActor(meta.by),
    action: 'import.started',
    target: `import:${doc._id}`,
    details: {
      file: doc.fileName,
      platform: doc.platform,
      to_import: result.preview.counts.imported,
      duplicates: result.preview.counts.duplicates,
      held: result.preview.counts.held,
      problems: result.preview.counts.problems,
      status: doc.status,
    },
  });
  return { dryRun: false, import: doc };
}

async function queueRun(
  services: Pick<Services, 'imports' | 'scheduler'>,
  doc: Pick<Import, '_id' | 'shopId'>,
): Promise<void> {
  await services.imports.queueWork('run', doc._id, doc.shopId);
  services.scheduler.trigger(IMPORT_JOB, doc._id);
}

const notFound = () => new HttpError(404, 'No such import.');

export async function approveImport(
  services: Pick<Services, 'audit' | 'imports' | 'now' | 'scheduler'>,
  shopId: number,
  importId: string,
): Promise<Import> {
  const doc = await services.imports.get(shopId, importId);
  if (!doc) throw notFound();
  if (doc.status !== 'awaiting_approval') {
    throw new HttpError(409, `The import does not wait for approval (it is ${doc.status}).`, 'conflict');
  }
  if (!(await services.imports.move(importId, 'awaiting_approval', { status: 'running', approved: services.now() }))) {
    throw new HttpError(409, 'The import was decided meanwhile.', 'conflict');
  }
  await queueRun(services, doc);
  await services.audit.record({
    shopId,
    actor: { kind: 'operator' },
    action: 'import.approved',
    target: `import:${importId}`,
    details: { to_import: doc.preview.counts.imported, distribution: doc.preview.distribution },
  });
  return { ...doc, status: 'running' };
}

/**
 * The operator's decision on every review of the import still held (unpublished, spam or not approved at the source):
 * keep (publish) them or remove them on a ground, product reviews likewise. Recorded as pending on the import and
 * applied by the worker (applyHeld): an import may hold thousands, too many to decide within the request on the
 * embedded database. One decision at a time per import.
 */
export async function decideHeld(
  services: Pick<Services, 'imports' | 'now' | 'scheduler'>,
  shopId: number,
  importId: string,
  decision: { action: 'keep' | 'remove'; ground: Ground | null },
  actor: AuditActor,
): Promise<Import> {
  const doc = await services.imports.get(shopId, importId);
  if (!doc) throw notFound();
  if (doc.status !== 'done') {
    throw new HttpError(409, `Held reviews are decided once the import is done (it is ${doc.status}).`, 'conflict');
  }
  if (doc.heldPending) throw heldBusy();
  const pending = { ...decision, at: services.now(), reviews: 0, actor };
  // Queued first: a crash before the decision is recorded leaves work that finds nothing pending and ends.
  await services.imports.queueWork('held', importId, shopId);
  if (!(await services.imports.requestHeldDecision(importId, pending))) {
    throw new HttpError(409, 'The import changed meanwhile; try again.', 'conflict');
  }
  services.scheduler.trigger(IMPORT_JOB, importId);
  return { ...doc, heldPending: pending };
}

const heldBusy = () =>
  new HttpError(
    409,
    'A decision on the held reviews of this import is being applied: wait until it is done.',
    'conflict',
  );

/** Undoes an import within UNDO_DAYS of its end (the worker removes its reviews), or cancels one awaiting approval. */
export async function undoImport(
  services: Pick<Services, 'audit' | 'importPhotos' | 'imports' | 'now' | 'scheduler'>,
  shopId: number,
  importId: string,
  actor: AuditActor,
): Promise<Import> {
  const doc = await services.imports.get(shopId, importId);
  if (!doc) throw notFound();
  const now = services.now();
  if (doc.status === 'running') {
    throw new HttpError(409, 'The import is running: undo it once it is done.', 'conflict');
  }
  if (doc.status === 'undone') throw new HttpError(409, 'The import was undone already.', 'conflict');
  if (doc.status === 'done' && doc.finished && now.getTime() - doc.finished.getTime() > UNDO_DAYS * 86_400_000) {
    throw new HttpError(409, `An import can be undone within ${UNDO_DAYS} days of its end.`, 'conflict');
  }
  if (!(await services.imports.move(importId, doc.status, { status: 'undone', undone: now }))) {
    throw new HttpError(409, 'The import changed meanwhile; try again.', 'conflict');
  }
  if (doc.status === 'done') {
    await cancelImportPhotos(services, importId);
    await services.imports.queueWork('undo', importId, shopId, now);
    services.scheduler.trigger(IMPORT_JOB, importId);
  } else if (doc.status === 'awaiting_approval' || doc.status === 'failed') {
    await services.imports.dropFile(importId, doc.chunks);
  }
  await services.audit.record({
    shopId,
    actor,
    action: 'import.undone',
    target: `import:${importId}`,
    details: { status: { from: doc.status, to: 'undone' }, imported: doc.counts.imported },
  });
  return { ...doc, status: 'undone', undone: now };
}

/**
 * The worker's drain: every import's work due (run, undo, the decision on its held reviews, discard), one item at a time, each taken with a claim on it
 * (the work queue's) and on its shop (the shop lock): one import of a shop at a time, whichever worker, as two files
 * with the same reviews must not both write them, and the photo worker does not attach a photo to a review an undo is
 * removing. An item whose shop is busy is left due for the next run; one that fails is tried again a minute later.
 */
export async function drainImports(
  services: Pick<
    Services,
    | 'activity'
    | 'audit'
    | 'compliance'
    | 'importPhotos'
    | 'imports'
    | 'log'
    | 'moderation'
    | 'now'
    | 'photos'
    | 'productReviews'
    | 'reviews'
    | 'scheduler'
    | 'webshops'
  >,
  holder: string,
): Promise<void> {
  const { imports } = services;
  const skip = new Set<string>();
  for (;;) {
    const item = await imports.nextWork(holder, LEASE_MS, skip);
    if (!item) break;
    skip.add(item.key);
    if (!(await imports.lockShop(item.shopId, holder, LEASE_MS))) {
      await imports.releaseWork(holder);
      continue;
    }
    const done = () => imports.workDone(holder, item);
    try {
      if (item.work === 'run') await runImport(services, item, done, renewer(services, holder));
      else if (item.work === 'undo') await removeImported(services, item, done, renewer(services, holder));
      else if (item.work === 'held') await applyHeld(services, item, done, renewer(services, holder));
      else await discardAbandoned(services, item, done);
    } catch (err) {
      await imports.retryWork(holder, item, new Date(services.now().getTime() + RETRY_MS), String(err));
      services.log.error({ err, import: item.importId, work: item.work }, 'import work failed, tried again later');
    } finally {
      await imports.unlockShop(item.shopId, holder);
    }
  }
  if (skip.size) await imports.pruneClaims(new Date(services.now().getTime() - PRUNE_AFTER_MS));
}

/** Renews the run's claims once RENEW_AFTER_MS have gone since the last time: called after every batch. */
function renewer(services: Pick<Services, 'imports'>, holder: string): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < RENEW_AFTER_MS) return;
    last = performance.now();
    await services.imports.renewWork(holder, LEASE_MS);
  };
}

async function discardAbandoned(services: Pick<Services, 'imports'>, queued: QueuedImport, done: Done): Promise<void> {
  // The upload died before its piece count was recorded: pieces are removed until one is missing.
  let n = 0;
  while ((await services.imports.dropPieceIfThere(queued.importId, n)) && n < 200) n++;
  await done();
}

/** Takes the finished work off the queue (and releases its claim). */
type Done = () => Promise<void>;

function productReviewOf(doc: Import, item: ImportItem, now: Date): ImportedProductReview {
  return {
    _id: keyId(doc.shopId, item.key),
    shopId: doc.shopId,
    import_id: doc._id,
    product: item.product!,
    rating: item.rating,
    title: item.title,
    text: item.text,
    name: item.name,
    email: item.email,
    country: item.country,
    origin: 'imported',
    imported_from: item.importedFrom || doc.platform,
    original_date: item.date,
    experience_date: item.experienceDate,
    incentivised: item.incentivised,
    source_verified: item.sourceVerified,
    reply: item.reply,
    photo_urls: item.photos,
    status: item.held ? 'held' : 'published',
    source_status: item.sourceStatus,
    removal_ground: null,
    created: now,
    modified: now,
  };
}

function draftOf(doc: Import, shop: Webshop, item: ImportItem): ImportedReviewDraft {
  return {
    name: item.name,
    email: item.email,
    rating: item.rating,
    comment: item.text || null,
    language: normalizeLanguage(item.language) ?? mainLanguage(shop),
    country: item.country,
    quarantine: item.held,
    incentivised: item.incentivised,
    imported_from: item.importedFrom || doc.platform,
    original_date: item.date,
    source_verified: item.sourceVerified,
    import_id: doc._id,
    title: item.title,
    experience_date: item.experienceDate,
    source_status: item.held ? item.sourceStatus : '',
    source_order: item.order,
    photo_urls: item.photos,
    reply: item.reply,
    products: item.products,
  };
}

async function runImport(
  services: Pick<
    Services,
    | 'activity'
    | 'audit'
    | 'compliance'
    | 'importPhotos'
    | 'imports'
    | 'now'
    | 'productReviews'
    | 'reviews'
    | 'scheduler'
    | 'webshops'
  >,
  queued: QueuedImport,
  done: Done,
  renew: () => Promise<unknown>,
): Promise<void> {
  const { imports, reviews } = services;
  const doc = await imports.get(queued.shopId, queued.importId);
  const shop = await services.webshops.get(queued.shopId);
  if (doc?.status !== 'running' || !shop) {
    await done();
    return;
  }
  if (doc.pending) {
    await imports.forgetKeysOfRange(doc._id, doc.pending);
    await reviews.removeImportedRange(doc.shopId, doc._id, doc.pending);
    await imports.update(doc._id, { pending: null });
  }
  const open = opener(services, doc._id, doc.chunks);
  const options = {
    format: doc.format,
    dateOrder: doc.dateOrder,
    replyAuthors: doc.replyAuthors,
    mapping: doc.mapping ?? undefined,
  };
  let analysis: Analysis;
  try {
    analysis = await analyse(open, doc.encoding, options);
  } catch (err) {
    if (!(err instanceof ImportFileError)) throw err;
    await finish(services, doc, { status: 'failed', error: err.message }, emptyCounts(), [], done);
    return;
  }
  const known = await imports.knownKeys(doc.shopId);
  const counts = emptyCounts();
  const problems: RowProblem[] = [];
  let batch: ImportItem[] = [];
  let problemsWritten = 0;
  /** The public caches are told once, at the end of the run (ReviewStore.importedPublished). */
  let lastPublished: Review | undefined;

  /**
   * Before each write, the API's writes in flight in this process go first (ROLE=all: a request's write would else
   * wait behind the import's), up to YIELD_MAX_MS each time and YIELD_SHARE of the run's own write time in all: the
   * waits never cost more than a pause of that share after each batch did, and happen only while requests write.
   */
  const time = { writing: 0, yielded: 0 };
  const letRequestsFirst = async () => {
    const allowed = Math.min(YIELD_MAX_MS, time.writing * YIELD_SHARE - time.yielded);
    if (allowed <= 0) return;
    const started = performance.now();
    await services.activity.yieldTo(allowed);
    time.yielded += performance.now() - started;
  };
  /** Review ids are drawn ID_BLOCK at a time (one counter update every few batches); ids left by a crash are skipped. */
  let ids = { next: 0, left: 0 };
  const drawIds = async (count: number): Promise<number> => {
    if (ids.left < count) {
      const block = Math.max(count, ID_BLOCK);
      await letRequestsFirst();
      ids = { next: await reviews.allocateIds(block), left: block };
    }
    const first = ids.next;
    ids = { next: first + count, left: ids.left - count };
    return first;
  };
  /** The progress as of the batch written last, recorded with the next batch's `pending` (one update per batch). */
  let progressToRecord: (Pick<Import, 'counts'> & Partial<Pick<Import, 'problems'>>) | null = null;

  /**
   * Writes one batch. The next batch is read from the file while this one is written (the database works in its own
   * process), but only one batch is written at a time: `pending` names the one in flight, and stays until the next
   * batch replaces it (a crash in between writes the last batch again: removed first, nothing twice). Each write
   * lets the API's writes in flight in this process go first (ROLE=all), and the reviews go PIECE at a time, so that
   * a request's write waits for one short insert, not for a whole batch (docs/decisions/imports.md, Scale).
   */
  const write = async (items: ImportItem[], progress: ImportCounts, problemsNow: RowProblem[] | null) => {
    const started = performance.now();
    const yieldedBefore = time.yielded;
    const store = items.filter((i) => i.kind === 'store');
    const products = items.filter((i) => i.kind === 'product');
    const now = services.now();
    const first = store.length ? await drawIds(store.length) : 0;
    await letRequestsFirst();
    await imports.update(doc._id, {
      pending: store.length ? { from: first, to: first + store.length - 1 } : null,
      ...progressToRecord,
    });
    if (store.length) {
      const written = await reviews.insertImported(
        doc.shopId,
        store.map((i) => draftOf(doc, shop, i)),
        first,
        { publicLater: true, pieces: { size: PIECE, before: letRequestsFirst } },
      );
      if (written.some((r) => r.published)) lastPublished = written.at(-1);
      // A bulk import runs no write followers: its reviews are counted here (compliance/follower.ts).
      for (const review of written) countWrite(services.compliance, undefined, review, now);
    }
    for (let i = 0; i < products.length; i += PIECE) {
      await letRequestsFirst();
      await services.productReviews.insert(
        products.slice(i, i + PIECE).map((item) => productReviewOf(doc, item, now)),
        { later: true },
      );
    }
    let next = first;
    await letRequestsFirst();
    // Identities are small documents: one insert for the batch.
    await imports.addKeys(
      items.map((i) => ({
        _id: keyId(doc.shopId, i.key),
        shopId: doc.shopId,
        importId: doc._id,
        reviewId: i.kind === 'store' ? next++ : null,
        held: i.held,
      })),
    );
    progressToRecord = { counts: progress, ...(problemsNow ? { problems: problemsNow } : {}) };
    await renew();
    time.writing += performance.now() - started - (time.yielded - yieldedBefore);
  };
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await writing;
    if (!batch.length) return;
    // The problems list is written again only when it grew (up to PROBLEMS_KEPT entries).
    const grew = problems.length > problemsWritten;
    problemsWritten = problems.length;
    writing = write(batch, { ...counts }, grew ? [...problems] : null);
    // Awaited at the next flush; handled now, so a failed write is not an unhandled rejection meanwhile.
    writing.catch(() => undefined);
    batch = [];
  };

  for await (const outcomes of importRows(open, doc.encoding, analysis, { ...options, now: services.now() })) {
    for (const outcome of outcomes) {
      counts.read++;
      if ('reason' in outcome) {
        counts.problems++;
        if (problems.length < PROBLEMS_KEPT) problems.push(outcome);
        continue;
      }
      if (!('key' in outcome)) continue;
      const seen = known.get(outcome.key);
      if (seen) {
        // Written by an earlier run of this import (interrupted): counted again, not written again.
        if (seen.importId === doc._id) countItem(counts, { ...outcome, held: seen.held });
        else counts.duplicates++;
        continue;
      }
      known.set(outcome.key, { importId: doc._id, held: outcome.held });
      countItem(counts, outcome);
      batch.push(outcome);
      if (batch.length >= RUN_BATCH) await flush();
    }
  }
  await flush();
  await writing;
  // Also after a run that wrote nothing new: an interrupted earlier run may have written batches it never told.
  await reviews.importedPublished(doc.shopId, lastPublished);
  await services.productReviews.announce(doc.shopId);
  await finish(services, doc, { status: 'done', error: null }, counts, problems, done);
}

async function finish(
  services: Pick<Services, 'audit' | 'importPhotos' | 'imports' | 'now' | 'scheduler'>,
  doc: Import,
  outcome: { status: 'done' | 'failed'; error: string | null },
  counts: ImportCounts,
  problems: RowProblem[],
  done: Done,
): Promise<void> {
  // Its reviews are written: the photo URLs they name are fetched next (photo-import.ts), queued before the import is
  // marked done so that a crash in between loses none (the worker waits for `done`).
  if (outcome.status === 'done') await queueImportPhotos(services, doc);
  await services.imports.update(doc._id, {
    ...outcome,
    counts,
    problems,
    pending: null,
    finished: services.now(),
  });
  await services.imports.dropFile(doc._id, doc.chunks);
  await done();
  await services.audit.record({
    shopId: doc.shopId,
    actor: { kind: 'system' },
    action: outcome.status === 'done' ? 'import.done' : 'import.failed',
    target: `import:${doc._id}`,
    details: { ...counts, ...(outcome.error ? { error: outcome.error } : {}) },
  });
}

/** Reviews read per batch when the decision on an import's held reviews is applied. */
const HELD_BATCH = 100;
/**
 * Reviews written per step. On the embedded database each review's write reads the whole collection (measured: 100
 * took 8 minutes in a shop of 20,000 reviews), so a step stays well within the lease (LEASE_MS), renewed between steps.
 */
const HELD_STEP = 10;

/**
 * The pending decision on the import's held reviews, read HELD_BATCH and written HELD_STEP reviews at a time.
 * Resumable: a repeat after a crash finds the reviews decided already no longer held (kept ones are published,
 * removed ones deleted) and goes on with the rest; each review's removal is keyed by it, and the audit entry by the
 * decision, so neither is recorded twice. The count is kept on the pending decision step by step (a crash between a
 * step's writes and its count leaves that step uncounted).
 */
async function applyHeld(
  services: Pick<Services, 'audit' | 'imports' | 'moderation' | 'photos' | 'productReviews' | 'reviews' | 'scheduler'>,
  queued: QueuedImport,
  done: Done,
  renew: () => Promise<unknown>,
): Promise<void> {
  const { imports, moderation } = services;
  const doc = await imports.get(queued.shopId, queued.importId);
  const pending = doc?.heldPending;
  if (!doc || !pending) {
    await done();
    return;
  }
  if (doc.status !== 'done') {
    // Undone meanwhile: the undo removes its reviews, held or not.
    await imports.update(doc._id, { heldPending: null });
    await done();
    return;
  }
  const { shopId } = doc;
  const { action, ground, at } = pending;
  const verdict = action === 'keep' ? { keep: true as const } : { remove: ground };
  const removal = action === 'remove' ? ground : null;
  const importId = doc._id;
  const step = async (held: Review[]) => {
    // Removals before the reviews: a crash in between leaves the reviews held, and the repeat finds them recorded.
    if (removal) await moderation.recordRemovals(held.map((r) => ({ _id: r.id, shopId, ground: removal, at })));
    const written = await services.reviews.decideImported(held, verdict);
    if (removal && written.length < held.length) {
      // Changed meanwhile, and left as they are: not removed by this decision.
      const landed = new Set(written.map((r) => r.id));
      await moderation.forgetRemovals(
        held.filter((r) => !landed.has(r.id)).map((r) => r.id),
        at,
      );
    }
    await dropPhotosOfRemoved(services, written);
    await imports.countHeldDecided(importId, written.length);
    await renew();
  };
  for await (const batch of services.reviews.ofImport(shopId, importId, HELD_BATCH)) {
    const held = batch.filter((r) => r.quarantine);
    for (let n = 0; n < held.length; n += HELD_STEP) await step(held.slice(n, n + HELD_STEP));
  }
  const products = await services.productReviews.decide(doc._id, 'held', 'keep' in verdict ? 'keep' : verdict, (ids) =>
    dropProductReviewPhotos(services, ids),
  );
  await imports.countHeldDecided(doc._id, products);
  const reviews = (await imports.get(shopId, doc._id))?.heldPending?.reviews ?? 0;
  await services.audit.record(
    {
      shopId,
      actor: pending.actor,
      action: action === 'keep' ? 'import.held_kept' : 'import.held_removed',
      target: `import:${doc._id}`,
      details: { reviews, ground },
    },
    { at, key: `held:${doc._id}` },
  );
  await imports.update(doc._id, { held: { action, ground, at, reviews }, heldPending: null });
  await done();
}

/** Undo: the import's reviews removed (soft-deleted, without ground), its product reviews too, its keys forgotten. */
async function removeImported(
  services: Pick<Services, 'audit' | 'imports' | 'now' | 'photos' | 'productReviews' | 'reviews' | 'scheduler'>,
  queued: QueuedImport,
  done: Done,
  renew: () => Promise<unknown>,
): Promise<void> {
  const importId = queued.importId;
  let removed = 0;
  for await (const batch of services.reviews.ofImport(queued.shopId, importId, BATCH)) {
    // In steps, the lease renewed between them, as the held decision does: a batch of 100 could outlast the lease on
    // the embedded database, and another worker would then take the undo over while this one still runs it.
    for (let n = 0; n < batch.length; n += HELD_STEP) {
      const written = await services.reviews.decideImported(batch.slice(n, n + HELD_STEP), { remove: null });
      await dropPhotosOfRemoved(services, written);
      removed += written.length;
      await renew();
    }
  }
  removed += await services.productReviews.decide(importId, 'all', { remove: null }, (ids) =>
    dropProductReviewPhotos(services, ids),
  );
  await services.imports.forgetKeysOf(importId);
  await services.imports.update(importId, { undone: services.now() });
  await done();
  await services.audit.record({
    shopId: queued.shopId,
    actor: { kind: 'system' },
    action: 'import.removed',
    target: `import:${importId}`,
    details: { reviews: removed },
  });
}
