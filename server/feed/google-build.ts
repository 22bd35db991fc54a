// The built Google feed of a shop: a gzip file under DATA_DIR/google-feeds, written by streaming the shop's
// published reviews in batches (memory stays bounded whatever the shop's size), and kept until the shop's public
// data changes. The file is named by the shop's public review version and its settings' `updated`: a fetch that
// finds the file for the current names answers it; else a rebuild starts and, while it runs, fetches answer the
// shop's previous file (stale while rebuilding: a build of a large shop takes minutes) after waiting a little for it
// (a small shop's answer is fresh at once). Only a shop's first build is waited for. One build per shop at a time:
// per process (one promise), and across the processes of a host sharing DATA_DIR (a lock file created exclusively,
// kept fresh while the build runs, taken over when a crashed builder left it). Files are written to a temporary name
// and renamed, the metadata last, so a reader never sees half a file. The previous version's files stay until the
// next build: an answer that read its metadata just before a build ended still finds its file
// (docs/decisions/feed.md, docs/google.md). A change to what the feed sends also queues a rebuild for the worker
// (rebuild-queue.ts), which builds here through `refresh`, so that the next fetch finds the file built.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { setTimeout as pause } from 'node:timers/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/model.js';
import { feedHead, feedTail, type GoogleFeedContext, productReviewsOf, productReviewXml } from './google-feed.js';
import type { FeedKey } from './key-store.js';
import { ReadinessCounter, type ReadinessTally } from './readiness.js';

/** Reviews read from the database per batch of the build. */
const BUILD_BATCH = 500;
/** How long a fetch waits for a rebuild before it answers the previous file. */
const REBUILD_WAIT_MS = 5_000;
/** A build touches its lock this often; a lock untouched for LOCK_STALE_MS was left by a builder that died. */
const LOCK_TOUCH_MS = 15_000;
const LOCK_STALE_MS = 120_000;
/** How often a process whose shop another process is building looks whether the build is done. */
const LOCK_POLL_MS = 250;

export interface BuiltFeed {
  /** The gzip file. */
  file: string;
  /** Of the gzip file. */
  bytes: number;
  /** A digest of the XML, as an entity tag (quoted). */
  etag: string;
  lastModified: Date;
  tally: ReadinessTally;
}

interface Meta {
  etag: string;
  lastModified: string;
  bytes: number;
  tally: ReadinessTally;
}

interface Deps {
  /** What the build reads of the reviews (reviews/store.ts has them). */
  reviews: {
    versionsOf(shopId: number): Promise<{ all: number; public: number }>;
    publishedForFeed(shopId: number, batchSize: number): AsyncGenerator<Review[]>;
  };
  dir: string;
  brandName: string;
  baseUrl: string;
  now: () => Date;
  /** How long a fetch waits for a rebuild before answering the previous file (REBUILD_WAIT_MS; tests give 0). */
  rebuildWaitMs?: number;
}

type FeedShop = Pick<Webshop, 'id' | 'name' | 'url' | 'logo' | 'updated'>;

/** `<shop>-<files>-<version>-<updated ms>.json`: the version and time, to find the newest previous build. */
function buildOrder(name: string, prefix: string): [number, number] | null {
  const m = /^(\d+)-(\d+)\.json$/.exec(name.slice(prefix.length));
  return name.startsWith(prefix) && m ? [Number(m[1]), Number(m[2])] : null;
}

export class GoogleFeedFiles {
  /** The build this process runs, per shop: one at a time. */
  private readonly building = new Map<number, Promise<BuiltFeed>>();

  constructor(private readonly deps: Deps) {}

  /**
   * The feed as the shop's public data stands now when it is built; while a rebuild runs (started here if none is),
   * the shop's previous build, once the rebuild took longer than the wait. The first build is always waited for.
   */
  async current(shop: FeedShop, key: FeedKey): Promise<BuiltFeed> {
    const { base, prefix } = await this.names(shop, key);
    const built = await this.read(base);
    if (built) return built;
    const rebuild = this.rebuild(shop, base, prefix);
    const previous = await this.previous(prefix);
    if (!previous) return rebuild;
    // A failed rebuild leaves the previous file answering; the next fetch tries again.
    const done = rebuild.catch(() => previous);
    const waitMs = this.deps.rebuildWaitMs ?? REBUILD_WAIT_MS;
    return waitMs <= 0 ? previous : Promise.race([done, pause(waitMs, previous, { ref: false })]);
  }

  /**
   * The feed as the shop's public data stands now, built (and waited for) when it is not yet: the worker's queued
   * rebuild after a change (feed/rebuild-jobs.ts), so that the next fetch finds it built. Same build and lock as a
   * fetch's: a rebuild a fetch started meanwhile is joined, not repeated.
   */
  async refresh(shop: FeedShop, key: FeedKey): Promise<BuiltFeed> {
    const { base, prefix } = await this.names(shop, key);
    return (await this.read(base)) ?? this.rebuild(shop, base, prefix);
  }

  /** The names of the shop's files: `prefix` for all its builds under this key record, `base` for the current one. */
  private async names(shop: FeedShop, key: FeedKey): Promise<{ base: string; prefix: string }> {
    const version = (await this.deps.reviews.versionsOf(shop.id)).public;
    const prefix = `${shop.id}-${key.files}-`;
    return { prefix, base: `${prefix}${version}-${new Date(shop.updated).getTime()}` };
  }

  /** Resolves when the build this process runs for the shop (if any) has ended: for tests and the bench. */
  async whenBuilt(shopId: number): Promise<void> {
    await this.building.get(shopId)?.catch(() => undefined);
  }

  /** The shop's rebuild: this process's running one, else a new one (which waits for another process's). */
  private rebuild(shop: FeedShop, base: string, prefix: string): Promise<BuiltFeed> {
    let running = this.building.get(shop.id);
    if (!running) {
      running = this.buildLocked(shop, base, prefix).finally(() => this.building.delete(shop.id));
      this.building.set(shop.id, running);
    }
    return running;
  }

  /** Builds `base` holding the shop's lock file, unless another process built it meanwhile (then that one's). */
  private async buildLocked(shop: FeedShop, base: string, prefix: string): Promise<BuiltFeed> {
    await mkdir(this.deps.dir, { recursive: true });
    const lock = join(this.deps.dir, `${shop.id}.build.lock`);
    for (;;) {
      const built = await this.read(base);
      if (built) return built;
      if (await this.takeLock(lock)) break;
      await pause(LOCK_POLL_MS);
    }
    const touch = setInterval(() => {
      const now = new Date();
      utimes(lock, now, now).catch(() => undefined);
    }, LOCK_TOUCH_MS);
    touch.unref();
    try {
      return (await this.read(base)) ?? (await this.build(shop, base, prefix));
    } finally {
      clearInterval(touch);
      await rm(lock, { force: true });
    }
  }

  /**
   * Creates the lock file (exclusively: one process wins). A lock untouched for LOCK_STALE_MS is removed, to be
   * taken at the next try: two processes taking over the same dead lock may both build, harmlessly (each file is
   * written under a temporary name and renamed whole).
   */
  private async takeLock(lock: string): Promise<boolean> {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const held = await stat(lock).catch(() => null);
      if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) await rm(lock, { force: true });
      return false;
    }
  }

  /** The shop's newest whole build (its metadata written), whatever its version; null before the first. */
  private async previous(prefix: string): Promise<BuiltFeed | null> {
    const names = await readdir(this.deps.dir).catch(() => [] as string[]);
    let newest: { name: string; order: [number, number] } | undefined;
    for (const name of names) {
      const order = buildOrder(name, prefix);
      if (!order) continue;
      if (!newest || order[0] > newest.order[0] || (order[0] === newest.order[0] && order[1] > newest.order[1]))
        newest = { name, order };
    }
    return newest ? this.read(newest.name.slice(0, -'.json'.length)) : null;
  }

  private async read(base: string): Promise<BuiltFeed | null> {
    try {
      const meta = JSON.parse(await readFile(join(this.deps.dir, `${base}.json`), 'utf8')) as Meta;
      return { ...meta, file: join(this.deps.dir, `${base}.xml.gz`), lastModified: new Date(meta.lastModified) };
    } catch {
      return null;
    }
  }

  private async build(shop: FeedShop, base: string, prefix: string): Promise<BuiltFeed> {
    const { dir } = this.deps;
    const ctx: GoogleFeedContext = { shop, brandName: this.deps.brandName, baseUrl: this.deps.baseUrl };
    const counter = new ReadinessCounter(this.deps.now());
    const digest = createHash('sha256');
    const reviews = this.deps.reviews;
    async function* parts(): AsyncGenerator<string> {
      let opened = false;
      const head = feedHead(ctx);
      digest.update(head);
      yield head;
      for await (const batch of reviews.publishedForFeed(shop.id, BUILD_BATCH)) {
        let out = '';
        for (const review of batch) {
          counter.add(review);
          for (const { entry, leftOut } of productReviewsOf(review)) {
            if (leftOut) continue;
            if (!opened) out += '<reviews>';
            opened = true;
            out += productReviewXml(entry, ctx);
          }
        }
        if (out) {
          digest.update(out);
          yield out;
        }
      }
      const tail = feedTail(opened);
      digest.update(tail);
      yield tail;
    }
    const file = join(dir, `${base}.xml.gz`);
    const temp = `${file}.${randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(Readable.from(parts()), createGzip(), createWriteStream(temp));
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    const meta: Meta = {
      etag: `"${digest.digest('base64url').slice(0, 32)}"`,
      lastModified: new Date(Math.floor(this.deps.now().getTime() / 1000) * 1000).toISOString(),
      bytes: (await stat(file)).size,
      tally: counter.result(),
    };
    // The metadata last: its presence says the file is whole.
    const metaFile = join(dir, `${base}.json`);
    await writeFile(`${metaFile}.part`, JSON.stringify(meta));
    await rename(`${metaFile}.part`, metaFile);
    await this.removeOlder(prefix, base);
    return { ...meta, file, lastModified: new Date(meta.lastModified) };
  }

  /**
   * The shop's files of versions before the previous one (an answer still sending one keeps it open: removal waits
   * for it). The previous build stays until the next: an answer that read its metadata a moment ago still finds it.
   */
  private async removeOlder(prefix: string, base: string): Promise<void> {
    const names = await readdir(this.deps.dir).catch(() => [] as string[]);
    const others = names.filter((n) => n.startsWith(prefix) && !n.startsWith(`${base}.`) && !n.endsWith('.part'));
    const order = (n: string) => buildOrder(`${n.slice(0, n.indexOf('.'))}.json`, prefix) ?? [0, 0];
    const builds = [...new Set(others.map((n) => n.slice(0, n.indexOf('.'))))].sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return y[0] - x[0] || y[1] - x[1];
    });
    const kept = builds[0];
    const older = others.filter((n) => n.slice(0, n.indexOf('.')) !== kept);
    await Promise.all(older.map((n) => rm(join(this.deps.dir, n), { force: true })));
  }
}
